/**
 * A product as the Store API shows it: StoreApi/Schemas/V1/ProductSchema.php get_item_response(), with
 * prepare_product_price_response() (price, regular and sale price in minor units; a sale price falls back to the
 * price, as wc_get_price_excluding_tax() does for an empty one), get_price_range() for variable products,
 * get_stock_availability(), the add_to_cart block and ImageAttachmentSchema's images.
 */

import { activePrice, isOnSale, productOnSale, productPrice, variationsOf } from '../../catalog/prices.js';
import { productRating } from '../../catalog/reviews.js';
import { productStockStatus } from '../../catalog/stock.js';
import type { ProductRec } from '../../data/rows.js';
import type { Store } from '../../data/store.js';
import { UNCATEGORIZED_ID } from '../../data/tables.js';
import { wcPrice } from '../../pricing/price-format.js';
import { phpFloatval } from '../../runtime/numbers.js';
import { permalink } from '../sellable.js';
import { htmlResponse } from './html.js';
import { minor, withCurrency } from './money.js';

/** A price WooCommerce would show for a child: its active price, '' for none. */
function priced(values: string[]): number[] {
  return values.filter((x) => x !== '').map(phpFloatval);
}

/**
 * prepare_product_price_response(): a variable product's regular and sale prices are its variations' lowest
 * (get_variation_regular_price(), get_variation_sale_price()); get_price_range() gives a variable product's
 * lowest and highest price when they differ, and a grouped product's over its priced children.
 */
function prices(store: Store, p: ProductRec): Record<string, unknown> {
  const price = productPrice(store, p);
  let regular = p.regular_price === '' ? price : p.regular_price;
  let sale = isOnSale(p) ? p.sale_price : price;
  let range: number[] = [];
  if (p.type === 'variable') {
    const vs = variationsOf(store, p).filter((v) => v.status === 'publish');
    const lowest = (xs: number[]) => (xs.length > 0 ? String(Math.min(...xs)) : price);
    regular = lowest(priced(vs.map((v) => v.regular_price)));
    sale = lowest(priced(vs.map(activePrice)));
    const all = priced(vs.map(activePrice));
    if (all.length > 0 && Math.min(...all) !== Math.max(...all)) range = all;
  } else if (p.type === 'grouped') {
    range = priced(
      p.grouped_products
        .map((id) => store.state.products.get(id))
        .filter((c): c is ProductRec => c !== undefined && c.status === 'publish')
        .map((c) => productPrice(store, c)),
    );
  }
  return withCurrency(store, {
    price: minor(store, price),
    regular_price: minor(store, regular),
    sale_price: minor(store, sale),
    price_range:
      range.length > 0
        ? { min_amount: minor(store, Math.min(...range)), max_amount: minor(store, Math.max(...range)) }
        : null,
  });
}

/** get_stock_availability(): WC_Product::get_availability()'s text and class. */
function stockAvailability(p: ProductRec, status: string): { text: string; class: string } {
  if (status === 'outofstock') return { text: 'Out of stock', class: 'out-of-stock' };
  if (status === 'onbackorder') return { text: 'Available on backorder', class: 'available-on-backorder' };
  if (p.manage_stock && p.stock_quantity !== null)
    return { text: `${p.stock_quantity} in stock`, class: 'in-stock' };
  return { text: '', class: 'in-stock' };
}

/** get_term_list(): the product's terms with their links, the default category (`default_product_cat`) left out. */
function terms(store: Store, ids: number[], taxonomy: string, base: string): Record<string, unknown>[] {
  return ids
    .map((id) => store.state.terms.get(id))
    .filter((t) => t !== undefined && t.taxonomy === taxonomy && t.id !== UNCATEGORIZED_ID)
    .map((t) => ({ id: t!.id, name: t!.name, slug: t!.slug, link: `${store.homeUrl}/${base}/${t!.slug}/` }));
}

/** A product image as the Store API gives it (ImageAttachmentSchema): the cart's items and products share it. */
export function presentStoreImage(img: ProductRec['images'][number]): Record<string, unknown> {
  return {
    id: img.id,
    src: img.src,
    thumbnail: img.src,
    srcset: '',
    sizes: '',
    name: img.name,
    alt: img.alt,
  };
}

/** WC_Product_*::add_to_cart_description(): the format strings carry the entities. */
function addToCartDescription(p: ProductRec, buyable: boolean): string {
  if (p.type === 'variable') return `Select options for &ldquo;${p.name}&rdquo;`;
  if (p.type === 'grouped') return `View products in the &ldquo;${p.name}&rdquo; group`;
  return buyable || p.type === 'external'
    ? `Add to cart: &ldquo;${p.name}&rdquo;`
    : `Read more about &ldquo;${p.name}&rdquo;`;
}

export function presentStoreProduct(store: Store, p: ProductRec): Record<string, unknown> {
  const status = productStockStatus(store, p);
  const price = productPrice(store, p);
  const purchasable = ['publish', 'private'].includes(p.status) && price !== '' && p.type !== 'external';
  const rating = productRating(store, p.id);
  const maxStock = p.manage_stock && p.backorders === 'no' ? Math.max(0, p.stock_quantity ?? 0) : 9999;
  return {
    id: p.id,
    // ProductSchema::get_item_response(): prepare_html_response( get_title() ), and so the sku and button texts.
    name: htmlResponse(p.name),
    slug: p.slug,
    parent: p.parent_id,
    type: p.type,
    variation: '',
    permalink: permalink(store, p),
    sku: htmlResponse(p.sku),
    short_description: p.short_description,
    description: p.description,
    on_sale: productOnSale(store, p),
    prices: prices(store, p),
    price_html: price === '' ? '' : wcPrice(store, phpFloatval(price)),
    average_rating: rating.average.toFixed(2),
    review_count: rating.count,
    images: p.images.map(presentStoreImage),
    categories: terms(store, p.categories, 'product_cat', 'product-category'),
    tags: terms(store, p.tags, 'product_tag', 'product-tag'),
    brands: [],
    attributes: p.attributes
      .filter((a) => a.visible || a.variation)
      .map((a) => ({
        id: a.id,
        name: a.name,
        taxonomy: a.id ? `pa_${a.slug ?? ''}` : null,
        has_variations: a.variation,
        terms: a.options.map((o, i) => ({ id: i, name: o, slug: o.toLowerCase() })),
      })),
    variations: variationsOf(store, p)
      .filter((v) => v.status === 'publish')
      .map((v) => ({ id: v.id, attributes: v.attributes.map((a) => ({ name: a.name, value: a.option })) })),
    grouped_products: p.grouped_products,
    has_options: p.type === 'variable',
    is_purchasable: purchasable,
    is_in_stock: status !== 'outofstock',
    is_on_backorder: status === 'onbackorder',
    low_stock_remaining:
      p.manage_stock && p.low_stock_amount !== null && (p.stock_quantity ?? 0) <= p.low_stock_amount
        ? p.stock_quantity
        : null,
    stock_availability: stockAvailability(p, status),
    sold_individually: p.sold_individually,
    add_to_cart: {
      text: p.type === 'variable' ? 'Select options' : purchasable ? 'Add to cart' : 'Read more',
      description: htmlResponse(addToCartDescription(p, purchasable && status !== 'outofstock')),
      url: p.type === 'simple' ? `?add-to-cart=${p.id}` : permalink(store, p),
      single_text: 'Add to cart',
      minimum: 1,
      maximum: p.sold_individually ? 1 : maxStock,
      multiple_of: 1,
    },
    extensions: {},
  };
}
