import { adjustStock } from '../catalog/stock.js';
import type { WriteJournal } from '../data/journal.js';
import type { OrderRec } from '../data/order-rows.js';
import type { Store } from '../data/store.js';

/** WC_Order::needs_processing(): true unless every item is virtual and downloadable (an unknown product counts). */
export function needsProcessing(store: Store, o: OrderRec): boolean {
  return o.line_items.some((li) => {
    const p = store.state.variations.get(li.variation_id) ?? store.state.products.get(li.product_id);
    return !p || !(p.virtual && p.downloadable);
  });
}

/** `total_sales` of the ordered products and variations, never below zero. */
function recordSales(store: Store, o: OrderRec, sign: 1 | -1, journal?: WriteJournal): void {
  for (const li of o.line_items) {
    const p = store.state.products.get(li.product_id);
    if (p) {
      journal?.touch(p);
      store.changed('products', p.id);
      p.total_sales = Math.max(0, p.total_sales + sign * li.quantity);
    }
    const v = store.state.variations.get(li.variation_id);
    if (v) {
      journal?.touch(v);
      store.changed('variations', v.id);
      v.total_sales = Math.max(0, v.total_sales + sign * li.quantity);
    }
  }
}

const REDUCE_ON = new Set(['processing', 'completed', 'on-hold']);

/** The hooks WooCommerce runs on `woocommerce_order_status_{to}` (wc-stock-functions.php, wc-order-functions.php). */
export function statusSideEffects(
  store: Store,
  o: OrderRec & { sales_recorded?: boolean },
  from: string,
  to: string,
  journal?: WriteJournal,
): void {
  if (from === to) return;
  const now = store.now();
  if ((to === 'processing' || to === 'completed') && o.date_paid === null) o.date_paid = now;
  if (to === 'completed') {
    o.date_completed = now;
    const c = store.state.customers.get(o.customer_id);
    if (c) {
      journal?.touch(c);
      store.changed('customers', c.id);
      c.is_paying_customer = true;
    }
  }
  if (REDUCE_ON.has(to)) {
    if (!o.stock_reduced) {
      adjustStock(store, o.line_items, -1, journal);
      o.stock_reduced = true;
    }
    if (!o.sales_recorded) {
      recordSales(store, o, 1, journal);
      o.sales_recorded = true;
    }
  }
  if ((to === 'cancelled' || to === 'pending') && o.stock_reduced) {
    adjustStock(store, o.line_items, 1, journal);
    o.stock_reduced = false;
  }
  if (to === 'cancelled' && o.sales_recorded) {
    recordSales(store, o, -1, journal);
    o.sales_recorded = false;
  }
}
