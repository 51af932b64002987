import { localeInfo } from '../data/geo.js';
import { getOption } from '../data/options.js';
import type { Store } from '../data/store.js';
import { type AdminField, section } from './fields.js';

/**
 * The `products` group: WC_Settings_Products (class-wc-settings-products.php), sections '' (general) and
 * 'inventory'. The 'downloadable' section is not emulated. Weight and dimension defaults come from
 * i18n/locale-info.php's US entry, as the page reads them.
 */
const us = localeInfo('US');
const shop = section('catalog_options', 'Shop pages');
const measurements = section('product_measurement_options', 'Measurements');
const reviews = section('product_rating_options', 'Reviews');
const inventory = section('product_inventory_options', 'Inventory');

/** The emulated install's administrator (get_option( 'admin_email' )). */
export const ADMIN_EMAIL = 'admin@example.com';

export const PRODUCTS_FIELDS: AdminField[] = [
  shop.open,
  {
    id: 'woocommerce_shop_page_id',
    title: 'Shop page',
    desc: 'The base page can also be used in your <a href="/wp-admin/options-permalink.php">product permalinks</a>.',
    type: 'single_select_page',
    default: '',
    desc_tip: 'This sets the base page of your shop - this is where your product archive will be.',
  },
  {
    id: 'woocommerce_cart_redirect_after_add',
    title: 'Add to cart behaviour',
    desc: 'Redirect to the cart page after successful addition',
    default: 'no',
    type: 'checkbox',
  },
  {
    id: 'woocommerce_enable_ajax_add_to_cart',
    desc: 'Enable AJAX add to cart buttons on archives',
    default: 'yes',
    type: 'checkbox',
  },
  {
    id: 'woocommerce_placeholder_image',
    title: 'Placeholder image',
    type: 'text',
    default: '',
    desc_tip:
      'This is the attachment ID, or image URL, used for placeholder images in the product catalog. Products with no image will use this.',
  },
  shop.close,
  measurements.open,
  {
    id: 'woocommerce_weight_unit',
    title: 'Weight unit',
    desc: 'This controls what unit you will define weights in.',
    default: us?.weight_unit ?? 'lbs',
    type: 'select',
    options: { kg: 'kg', g: 'g', lbs: 'lbs', oz: 'oz' },
    desc_tip: true,
  },
  {
    id: 'woocommerce_dimension_unit',
    title: 'Dimensions unit',
    desc: 'This controls what unit you will define lengths in.',
    default: us?.dimension_unit ?? 'in',
    type: 'select',
    options: { m: 'm', cm: 'cm', mm: 'mm', in: 'in', yd: 'yd' },
    desc_tip: true,
  },
  measurements.close,
  reviews.open,
  {
    id: 'woocommerce_enable_reviews',
    title: 'Enable reviews',
    desc: 'Enable product reviews',
    default: 'yes',
    type: 'checkbox',
  },
  {
    id: 'woocommerce_review_rating_verification_label',
    desc: 'Show "verified owner" label on customer reviews',
    default: 'yes',
    type: 'checkbox',
  },
  {
    id: 'woocommerce_review_rating_verification_required',
    desc: 'Reviews can only be left by "verified owners"',
    default: 'no',
    type: 'checkbox',
  },
  {
    id: 'woocommerce_enable_review_rating',
    title: 'Product ratings',
    desc: 'Enable star rating on reviews',
    default: 'yes',
    type: 'checkbox',
  },
  {
    id: 'woocommerce_review_rating_required',
    desc: 'Star ratings should be required, not optional',
    default: 'yes',
    type: 'checkbox',
  },
  reviews.close,
  inventory.open,
  {
    id: 'woocommerce_manage_stock',
    title: 'Manage stock',
    desc: 'Enable stock management',
    default: 'yes',
    type: 'checkbox',
  },
  {
    id: 'woocommerce_hold_stock_minutes',
    title: 'Hold stock (minutes)',
    desc: 'Hold stock (for unpaid orders) for x minutes. When this limit is reached, the pending order will be cancelled. Leave blank to disable.',
    type: 'number',
    default: '60',
  },
  {
    id: 'woocommerce_notify_low_stock',
    title: 'Notifications',
    desc: 'Enable low stock notifications',
    default: 'yes',
    type: 'checkbox',
  },
  {
    id: 'woocommerce_notify_no_stock',
    desc: 'Enable out of stock notifications',
    default: 'yes',
    type: 'checkbox',
  },
  {
    id: 'woocommerce_stock_email_recipient',
    title: 'Notification recipient(s)',
    desc: 'Enter recipients (comma separated) that will receive this notification.',
    type: 'text',
    default: ADMIN_EMAIL,
    desc_tip: true,
  },
  {
    id: 'woocommerce_notify_low_stock_amount',
    title: 'Low stock threshold',
    desc: 'When product stock reaches this amount you will be notified via email.',
    type: 'number',
    default: '2',
    desc_tip: true,
  },
  {
    id: 'woocommerce_notify_no_stock_amount',
    title: 'Out of stock threshold',
    desc: 'When product stock reaches this amount the stock status will change to "out of stock" and you will be notified via email. This setting does not affect existing "in stock" products.',
    type: 'number',
    default: '0',
    desc_tip: true,
  },
  {
    id: 'woocommerce_hide_out_of_stock_items',
    title: 'Out of stock visibility',
    desc: 'Hide out of stock items from the catalog',
    default: 'no',
    type: 'checkbox',
  },
  {
    id: 'woocommerce_stock_format',
    title: 'Stock display format',
    desc: 'This controls how stock quantities are displayed on the frontend.',
    default: '',
    type: 'select',
    options: {
      '': 'Always show quantity remaining in stock e.g. "12 in stock"',
      low_amount: 'Only show quantity remaining in stock when low e.g. "Only 2 left in stock"',
      no_amount: 'Never show quantity remaining in stock',
    },
    desc_tip: true,
  },
  inventory.close,
];

/** wc_get_product_tax_class_options(): the standard class ('') and every class row, slug → name. */
function taxClassOptions(store: Store): Record<string, string> {
  const out: Record<string, string> = { inherit: 'Shipping tax class based on cart items', '': 'Standard' };
  for (const c of store.state.tax_classes.values()) out[c.slug] = c.name;
  return out;
}

const tax = section('tax_options', 'Tax options');
const both = { incl: 'Including tax', excl: 'Excluding tax' };

/**
 * The `tax` group: includes/admin/settings/views/settings-tax.php (WC_Settings_Tax's default section; the rate
 * table sections have no fields). The shipping tax class field is left out while shipping is disabled
 * (wc_shipping_enabled()).
 */
export function taxFields(store: Store): AdminField[] {
  const shippingEnabled = getOption(store, 'woocommerce_ship_to_countries') !== 'disabled';
  return [
    tax.open,
    {
      id: 'woocommerce_prices_include_tax',
      title: 'Prices entered with tax',
      default: 'no',
      type: 'radio',
      desc_tip:
        'This option is important as it will affect how you input prices. If you select "Yes", enter prices including your base location\'s tax rate, the baseline for tax calculations. Changing this option will not update existing products.',
      options: {
        yes: 'Yes, I will enter prices inclusive of tax',
        no: 'No, I will enter prices exclusive of tax',
      },
    },
    {
      id: 'woocommerce_tax_based_on',
      title: 'Calculate tax based on',
      desc_tip: 'This option determines which address is used to calculate tax.',
      default: 'shipping',
      type: 'select',
      options: {
        shipping: 'Customer shipping address',
        billing: 'Customer billing address',
        base: 'Shop base address',
      },
    },
    {
      id: 'woocommerce_tax_debug_mode',
      title: 'Debug mode',
      desc: 'Enable debug mode',
      default: 'no',
      type: 'checkbox',
      desc_tip: 'Enable tax debug mode to show tax calculation details and bypass tax rate cache.',
    },
    ...(shippingEnabled
      ? [
          {
            id: 'woocommerce_shipping_tax_class',
            title: 'Shipping tax class',
            desc: 'Optionally control which tax class shipping gets, or leave it so shipping tax is based on the cart items themselves.',
            default: 'inherit',
            type: 'select',
            options: taxClassOptions,
            desc_tip: true,
          },
        ]
      : []),
    {
      id: 'woocommerce_tax_round_at_subtotal',
      title: 'Rounding',
      desc: 'Round tax at subtotal level, instead of rounding per line',
      default: 'no',
      type: 'checkbox',
    },
    {
      id: 'woocommerce_tax_classes',
      title: 'Additional tax classes',
      desc_tip:
        'List additional tax classes you need below (1 per line, e.g. Reduced Rates). These are in addition to "Standard rate" which exists by default.',
      type: 'textarea',
      default: '',
    },
    {
      id: 'woocommerce_tax_display_shop',
      title: 'Display prices in the shop',
      default: 'excl',
      type: 'select',
      options: both,
    },
    {
      id: 'woocommerce_tax_display_cart',
      title: 'Display prices during cart and checkout',
      default: 'excl',
      type: 'select',
      options: both,
    },
    {
      id: 'woocommerce_price_display_suffix',
      title: 'Price display suffix',
      default: '',
      type: 'text',
      desc_tip:
        'Define text to show after your product prices. This could be, for example, "inc. Vat" to explain your pricing. You can also have prices substituted here using one of the following: {price_including_tax}, {price_excluding_tax}.',
    },
    {
      id: 'woocommerce_tax_total_display',
      title: 'Display tax totals',
      default: 'itemized',
      type: 'select',
      options: { single: 'As a single total', itemized: 'Itemized' },
    },
    tax.close,
  ];
}
