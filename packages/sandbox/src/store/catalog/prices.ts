import type { ProductRec, VariationRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { phpFloatval, phpStringGreater } from '../runtime/numbers.js';
import { toNumber } from '../runtime/values.js';

/** Products and variations both sell: what prices and stock rules read of either. */
export type Sellable = ProductRec | VariationRec;

/** A variable product's variations, trashed ones left out. */
export function variationsOf(store: Store, p: ProductRec): VariationRec[] {
  return p.variation_ids
    .map((id) => store.state.variations.get(id))
    .filter((v): v is VariationRec => v !== undefined && v.status !== 'trash');
}

/** WC_Product::is_on_sale(): a sale price below the regular one (compared as PHP compares the two strings). */
export function isOnSale(p: Sellable, now = Date.now()): boolean {
  if (p.sale_price === '' || p.regular_price === '') return false;
  if (!phpStringGreater(p.regular_price, p.sale_price)) return false;
  if (p.date_on_sale_from !== null && p.date_on_sale_from > now) return false;
  if (p.date_on_sale_to !== null && p.date_on_sale_to < now) return false;
  return true;
}

export function activePrice(p: Sellable): string {
  return isOnSale(p) ? p.sale_price : p.regular_price;
}

/**
 * The price a product shows (get_price(), its `_price` meta): its own, or for a variable one the lowest price of
 * its published variations, as stored (WC_Product_Variable_Data_Store_CPT::sync_price() sorts them with
 * SORT_NUMERIC and the first `_price` row is read), '' when none has a price.
 */
export function productPrice(store: Store, p: ProductRec): string {
  if (p.type !== 'variable') return activePrice(p);
  const prices = variationsOf(store, p)
    .filter((v) => v.status === 'publish')
    .map(activePrice)
    .filter((x) => x !== '');
  return prices.reduce<string>((min, x) => (min === '' || phpFloatval(x) < phpFloatval(min) ? x : min), '');
}

/**
 * What one unit of a line item costs: wc_get_price_excluding_tax() is `(float) $product->get_price()`. A
 * variable parent is not refused (prepare_line_items() sets any product wc_get_product() finds), so it sells
 * at its `_price`: the lowest variation price, or 0 without one.
 */
export function unitPrice(store: Store, s: Sellable): number {
  return phpFloatval('type' in s ? productPrice(store, s) : activePrice(s));
}

/**
 * The product's wc_product_meta_lookup min_price/max_price: its first and last `_price` meta values
 * (WC_Product_Data_Store_CPT::get_data_for_lookup_table()). A variable product keeps one `_price` per distinct
 * price of its published variations, sorted (WC_Product_Variable_Data_Store_CPT::sync_price()); a grouped one the
 * lowest and highest of its children's prices, empty and "0" left out by array_filter()
 * (WC_Product_Grouped_Data_Store_CPT::update_prices_from_children()). Without any price the column gets 0: the
 * empty value is cast into the DECIMAL column.
 */
export function lookupPriceRange(store: Store, p: ProductRec): { min: number; max: number } {
  let prices: string[];
  if (p.type === 'variable') {
    prices = variationsOf(store, p)
      .filter((v) => v.status === 'publish')
      .map(activePrice)
      .filter((x) => x !== '');
  } else if (p.type === 'grouped') {
    prices = p.grouped_products
      .map((id) => store.state.products.get(id))
      .filter((c): c is ProductRec => c !== undefined)
      .map((c) => productPrice(store, c))
      .filter((x) => x !== '' && x !== '0');
  } else {
    prices = [activePrice(p)].filter((x) => x !== '');
  }
  const numbers = prices.map(toNumber);
  return numbers.length === 0 ? { min: 0, max: 0 } : { min: Math.min(...numbers), max: Math.max(...numbers) };
}

/** `on_sale`: a variable product is on sale when any of its variations is. */
export function productOnSale(store: Store, p: ProductRec): boolean {
  return p.type === 'variable' ? variationsOf(store, p).some((v) => isOnSale(v)) : isOnSale(p);
}

/** WC_Product_Variation::get_name(): the parent's name and the chosen options. */
export function variationName(store: Store, v: VariationRec): string {
  const parent = store.state.products.get(v.parent_id);
  const opts = v.attributes.map((a) => a.option).filter((o) => o !== '');
  return opts.length > 0 ? `${parent?.name ?? ''} - ${opts.join(', ')}` : (parent?.name ?? '');
}
