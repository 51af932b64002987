import { productOnSale, productPrice, variationsOf } from '../catalog/prices.js';
import { productRating } from '../catalog/reviews.js';
import { productStockStatus } from '../catalog/stock.js';
import { attributeTermsDef, termsOf } from '../catalog/terms.js';
import type { ProductAttribute, ProductRec, TermRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { wcPrice } from '../pricing/price-format.js';
import { slugify } from '../runtime/formatting.js';
import { money, toNumber, wcDate } from '../runtime/values.js';
import { backorderFlags, permalink, presentImage, shippingClassId } from './sellable.js';

/**
 * get_price_html(): wc_price() of the price, or wc_format_sale_price(): the regular price struck through before
 * the sale price, each also spelled out for screen readers (wp_strip_all_tags() of the same HTML).
 */
function priceHtml(store: Store, price: string, regular: string, onSale: boolean): string {
  if (price === '') return '';
  const amount = (v: string) => wcPrice(store, toNumber(v));
  if (!onSale) return amount(price);
  const text = (v: string) => amount(v).replace(/<[^>]*>/g, '');
  return `<del aria-hidden="true">${amount(regular)}</del> <span class="screen-reader-text">Original price was: ${text(
    regular,
  )}.</span><ins aria-hidden="true">${amount(price)}</ins><span class="screen-reader-text">Current price is: ${text(
    price,
  )}.</span>`;
}

/**
 * WC_REST_Products_Controller::get_attributes(): a global attribute shows the attribute's name, its `pa_` slug
 * and the names of the product's terms in the attribute's order; one whose attribute is gone shows id 0 and
 * no options. A custom attribute shows its own name and options.
 */
function presentAttributeRow(store: Store, a: ProductAttribute): Record<string, unknown> {
  const row = { position: a.position, visible: a.visible, variation: a.variation };
  if (!a.id) return { id: 0, name: a.name, slug: a.slug ?? slugify(a.name), ...row, options: a.options };
  const attr = store.state.attributes.get(a.id);
  if (!attr) return { id: 0, name: a.name, slug: '', ...row, options: [] };
  const terms = termsOf(store, attributeTermsDef(attr.id, attr.slug)).filter((t) =>
    a.options.some((o) => o === t.name || o === t.slug),
  );
  const sorted = sortAttributeTerms(terms, attr.order_by);
  return {
    id: attr.id,
    name: attr.name,
    slug: `pa_${attr.slug}`,
    ...row,
    options: sorted.map((t) => t.name),
  };
}

/** wc_get_product_terms() ordered by the attribute's `order_by`: name, numeric name, term id, or menu order. */
function sortAttributeTerms(terms: TermRec[], orderBy: string): TermRec[] {
  const byName = (x: TermRec, y: TermRec) => x.name.localeCompare(y.name, 'en', { sensitivity: 'base' });
  const sorted = [...terms];
  if (orderBy === 'id') sorted.sort((x, y) => x.id - y.id);
  else if (orderBy === 'name') sorted.sort(byName);
  else if (orderBy === 'name_num') sorted.sort((x, y) => toNumber(x.name) - toNumber(y.name) || byName(x, y));
  else sorted.sort((x, y) => x.menu_order - y.menu_order || byName(x, y));
  return sorted;
}

export function presentProduct(store: Store, p: ProductRec): Record<string, unknown> {
  const price = productPrice(store, p);
  const variable = p.type === 'variable';
  const onSale = productOnSale(store, p);
  const terms = (ids: number[], taxonomy: 'product_cat' | 'product_tag') =>
    ids
      .map((id) => store.state.terms.get(id))
      .filter((t) => t !== undefined && t.taxonomy === taxonomy)
      .map((t) => ({ id: t!.id, name: t!.name, slug: t!.slug }));
  const rating = productRating(store, p.id);
  const links: Record<string, unknown> = {
    self: [{ href: store.restUrl(`/products/${p.id}`) }],
    collection: [{ href: store.restUrl('/products') }],
  };
  if (p.parent_id) links.up = [{ href: store.restUrl(`/products/${p.parent_id}`) }];
  return {
    id: p.id,
    name: p.name,
    slug: p.slug,
    permalink: permalink(store, p),
    date_created: wcDate(p.created),
    date_created_gmt: wcDate(p.created),
    date_modified: wcDate(p.modified),
    date_modified_gmt: wcDate(p.modified),
    type: p.type,
    status: p.status,
    featured: p.featured,
    catalog_visibility: p.catalog_visibility,
    description: p.description,
    short_description: p.short_description,
    sku: p.sku,
    price,
    regular_price: variable ? '' : p.regular_price,
    sale_price: variable ? '' : p.sale_price,
    date_on_sale_from: wcDate(p.date_on_sale_from),
    date_on_sale_from_gmt: wcDate(p.date_on_sale_from),
    date_on_sale_to: wcDate(p.date_on_sale_to),
    date_on_sale_to_gmt: wcDate(p.date_on_sale_to),
    on_sale: onSale,
    purchasable: price !== '' && p.status === 'publish',
    total_sales: p.total_sales,
    virtual: p.virtual,
    downloadable: p.downloadable,
    downloads: p.downloads,
    download_limit: p.download_limit,
    download_expiry: p.download_expiry,
    external_url: p.external_url,
    button_text: p.button_text,
    tax_status: p.tax_status,
    tax_class: p.tax_class,
    manage_stock: p.manage_stock,
    stock_quantity: p.manage_stock ? p.stock_quantity : null,
    backorders: p.backorders,
    ...backorderFlags(p),
    low_stock_amount: p.low_stock_amount,
    sold_individually: p.sold_individually,
    weight: p.weight,
    dimensions: p.dimensions,
    shipping_required: !p.virtual,
    shipping_taxable: !p.virtual && (p.tax_status === 'taxable' || p.tax_status === 'shipping'),
    shipping_class: p.shipping_class,
    shipping_class_id: shippingClassId(store, p.shipping_class),
    reviews_allowed: p.reviews_allowed,
    average_rating: money(rating.average),
    rating_count: rating.count,
    upsell_ids: p.upsell_ids,
    cross_sell_ids: p.cross_sell_ids,
    parent_id: p.parent_id,
    purchase_note: p.purchase_note,
    categories: terms(p.categories, 'product_cat'),
    tags: terms(p.tags, 'product_tag'),
    images: p.images.map(presentImage),
    attributes: p.attributes.map((a) => presentAttributeRow(store, a)),
    default_attributes: p.default_attributes,
    variations: variable ? variationsOf(store, p).map((v) => v.id) : [],
    grouped_products: p.grouped_products,
    menu_order: p.menu_order,
    price_html: priceHtml(store, price, p.regular_price, onSale && !variable),
    related_ids: [],
    meta_data: p.meta_data,
    stock_status: productStockStatus(store, p),
    has_options: variable,
    post_password: '',
    global_unique_id: '',
    _links: links,
  };
}
