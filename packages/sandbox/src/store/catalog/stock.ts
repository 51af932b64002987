import type { WriteJournal } from '../data/journal.js';
import type { ProductRec, VariationRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { variationsOf } from './prices.js';

/** WC_Product_Data_Store validate_props(): a managed stock level decides the stock status. */
export function syncStockStatus(p: {
  manage_stock: boolean | 'parent';
  stock_quantity: number | null;
  backorders: string;
  stock_status: string;
}): void {
  if (p.manage_stock !== true) return;
  const qty = p.stock_quantity ?? 0;
  if (qty > 0) p.stock_status = 'instock';
  else p.stock_status = p.backorders === 'no' ? 'outofstock' : 'onbackorder';
}

/** A variable product's stock status is derived from its published variations (WC_Product_Variable::sync()). */
export function productStockStatus(store: Store, p: ProductRec): string {
  if (p.type !== 'variable') return p.stock_status;
  const vs = variationsOf(store, p).filter((v) => v.status === 'publish');
  if (vs.some((v) => effectiveStockStatus(store, v) === 'instock')) return 'instock';
  if (vs.some((v) => effectiveStockStatus(store, v) === 'onbackorder')) return 'onbackorder';
  return vs.length > 0 ? 'outofstock' : p.stock_status;
}

/** A variation whose stock the parent manages shows the parent's status. */
export function effectiveStockStatus(store: Store, v: VariationRec): string {
  if (v.manage_stock === 'parent')
    return store.state.products.get(v.parent_id)?.stock_status ?? v.stock_status;
  return v.stock_status;
}

/** The product whose stock an item moves: the variation when it manages stock, else a stock-managing parent. */
function stockHolder(
  store: Store,
  item: { product_id: number; variation_id: number },
): ProductRec | VariationRec | null {
  if (item.variation_id) {
    const v = store.state.variations.get(item.variation_id);
    if (v?.manage_stock === true) return v;
    const parent = store.state.products.get(v?.parent_id ?? item.product_id);
    return parent?.manage_stock ? parent : null;
  }
  const p = store.state.products.get(item.product_id);
  return p?.manage_stock ? p : null;
}

export function adjustStock(
  store: Store,
  items: { product_id: number; variation_id: number; quantity: number }[],
  sign: 1 | -1,
  journal?: WriteJournal,
): void {
  const now = store.now();
  for (const item of items) {
    const holder = stockHolder(store, item);
    if (!holder) continue;
    journal?.touch(holder);
    store.changed('type' in holder ? 'products' : 'variations', holder.id);
    holder.stock_quantity = (holder.stock_quantity ?? 0) + sign * item.quantity;
    syncStockStatus(holder);
    holder.modified = now;
    if ('type' in holder) store.emit('product', 'updated', holder.id);
  }
}
