import { toNumber } from '../values.js';
import type { ProductRec, VariationRec } from './records.js';
import type { Store } from './store.js';

/** Products and variations both sell: what prices and stock rules read of either. */
export type Sellable = ProductRec | VariationRec;

/** A variable product's variations, trashed ones left out. */
export function variationsOf(store: Store, p: ProductRec): VariationRec[] {
  return p.variation_ids
    .map((id) => store.state.variations.get(id))
    .filter((v): v is VariationRec => v !== undefined && v.status !== 'trash');
}

export function isOnSale(p: Sellable, now = Date.now()): boolean {
  if (p.sale_price === '' || p.regular_price === '') return false;
  if (toNumber(p.sale_price) >= toNumber(p.regular_price)) return false;
  if (p.date_on_sale_from !== null && p.date_on_sale_from > now) return false;
  if (p.date_on_sale_to !== null && p.date_on_sale_to < now) return false;
  return true;
}

export function activePrice(p: Sellable): string {
  return isOnSale(p) ? p.sale_price : p.regular_price;
}

/** The price a product shows: its own, or the lowest published variation price of a variable one. */
export function productPrice(store: Store, p: ProductRec): string {
  if (p.type !== 'variable') return activePrice(p);
  const prices = variationsOf(store, p)
    .filter((v) => v.status === 'publish')
    .map(activePrice)
    .filter((x) => x !== '')
    .map(Number);
  return prices.length > 0 ? String(Math.min(...prices)) : '';
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
