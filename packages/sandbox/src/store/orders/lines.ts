import { unitPrice, variationName } from '../catalog/prices.js';
import { applyMeta } from '../data/meta.js';
import { getOption } from '../data/options.js';
import type { FeeLine, LineItem, OrderRec, ShippingLine } from '../data/order-rows.js';
import type { Meta, ProductRec, VariationRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { nextId } from '../data/tables.js';
import { baseLocation, calcTax, findRates, sum, taxEnabled } from '../pricing/tax-math.js';
import { RestError } from '../runtime/errors.js';
import { isNumericString, phpFloatval, storedAmount, wcFormatDecimal } from '../runtime/numbers.js';

/**
 * WC_REST_Orders_V2_Controller::item_is_null() or a quantity of exactly 0: prepare_object_for_database() then
 * removes the line the item's `id` names, whatever else the item says.
 */
function removesLine(item: Record<string, unknown>): boolean {
  const named = ['product_id', 'method_id', 'method_title', 'name', 'code'];
  return named.some((k) => k in item && item[k] === null) || item.quantity === 0;
}

/** The product an item names: by `variation_id`, then `product_id` (which may be a variation's), then SKU. */
function resolveProduct(
  store: Store,
  item: Record<string, unknown>,
): { product: ProductRec | undefined; variation: VariationRec | undefined } {
  const vid = typeof item.variation_id === 'number' ? item.variation_id : 0;
  const pid = typeof item.product_id === 'number' ? item.product_id : 0;
  if (vid) {
    const variation = store.state.variations.get(vid);
    return { product: store.state.products.get(variation?.parent_id ?? pid), variation };
  }
  if (pid) {
    const asVariation = store.state.variations.get(pid);
    if (asVariation)
      return { product: store.state.products.get(asVariation.parent_id), variation: asVariation };
    return { product: store.state.products.get(pid), variation: undefined };
  }
  if (typeof item.sku === 'string' && item.sku !== '') {
    for (const v of store.state.variations.values()) {
      if (v.sku === item.sku) return { product: store.state.products.get(v.parent_id), variation: v };
    }
    for (const p of store.state.products.values())
      if (p.sku === item.sku) return { product: p, variation: undefined };
  }
  return { product: undefined, variation: undefined };
}

/** A line item amount as WC_Order_Item_Product stores it: wc_format_decimal(), 0 unless that is numeric. */
function itemAmount(value: string): number {
  const formatted = wcFormatDecimal(value);
  return isNumericString(formatted) ? Number(formatted) : 0;
}

/** The order line an item's `id` names (`undefined` for a new line); an ID that is not one of `lines` is a 400. */
function findLine<T extends { id: number }>(lines: T[], item: Record<string, unknown>): T | undefined {
  const id = typeof item.id === 'number' ? item.id : 0;
  const line = id ? lines.find((x) => x.id === id) : undefined;
  if (id && !line) {
    throw new RestError(
      400,
      'woocommerce_rest_invalid_item_id',
      'Order item ID provided is not associated with order.',
    );
  }
  return line;
}

/** A new WC_Order_Item_Product with its defaults (quantity 1, no product, zero totals). */
function blankLine(store: Store, quantity: number): LineItem {
  return {
    id: nextId(store.state, 'item'),
    name: '',
    product_id: 0,
    variation_id: 0,
    quantity,
    tax_class: '',
    subtotal: 0,
    subtotal_tax: 0,
    total: 0,
    total_tax: 0,
    taxes: { total: {}, subtotal: {} },
    sku: '',
    meta_data: [],
  };
}

/**
 * wc_get_price_excluding_tax() of `quantity` units: with prices entered including tax (and taxes on), the base
 * location's taxes come off the line price, unrounded (woocommerce_adjust_non_base_location_prices defaults to true).
 */
function linePrice(store: Store, sellable: ProductRec | VariationRec, quantity: number): number {
  // wc_get_price_excluding_tax() takes max( 0, qty ); set_total() keeps wc_format_decimal() of the float.
  return storedAmount(priceExcludingTax(store, sellable, Math.max(0, quantity)));
}

function priceExcludingTax(store: Store, sellable: ProductRec | VariationRec, quantity: number): number {
  const price = unitPrice(store, sellable) * quantity;
  const product = 'type' in sellable ? sellable : store.state.products.get(sellable.parent_id);
  const taxable = taxEnabled(store) && (product?.tax_status ?? 'taxable') === 'taxable';
  if (!taxable || getOption(store, 'woocommerce_prices_include_tax') !== 'yes') return price;
  const rates = findRates(store, baseLocation(store), taxClassOf(store, sellable));
  return price - sum(calcTax(store, price, rates, true).values());
}

/** WC_Product_Variation::get_tax_class(): `parent` means the parent product's class. */
function taxClassOf(store: Store, sellable: ProductRec | VariationRec): string {
  if ('type' in sellable || sellable.tax_class !== 'parent') return sellable.tax_class;
  return store.state.products.get(sellable.parent_id)?.tax_class ?? '';
}

/** Line items: update by `id`, remove (all other fields null or 0), or add priced from the product. */
export function applyLineItems(store: Store, o: OrderRec, items: Record<string, unknown>[]): void {
  for (const item of items) {
    let existing = findLine(o.line_items, item);
    if (existing && removesLine(item)) {
      const id = existing.id;
      o.line_items = o.line_items.filter((li) => li.id !== id);
      continue;
    }
    const refersToProduct =
      (typeof item.product_id === 'number' && item.product_id !== 0) ||
      (typeof item.variation_id === 'number' && item.variation_id !== 0) ||
      (typeof item.sku === 'string' && item.sku !== '');
    if (!existing && !refersToProduct) {
      throw new RestError(
        400,
        'woocommerce_rest_required_product_reference',
        'Product ID or SKU is required.',
      );
    }
    const quantity = typeof item.quantity === 'number' ? item.quantity : (existing?.quantity ?? 1);
    // prepare_line_items() prices a line only when it is created with a product (`'create' === $action`):
    // changing an existing line's quantity or product keeps its totals unless they are posted.
    let recompute = false;
    if (refersToProduct) {
      const { product, variation } = resolveProduct(store, item);
      const variationMissing = typeof item.variation_id === 'number' && item.variation_id !== 0 && !variation;
      if (!product || variationMissing) {
        // WC_REST_Orders_V2_Controller::prepare_line_items(): wc_get_product() of an unknown ID is false, so
        // set_product() is skipped and no error is raised: a new item stays unlinked (product_id 0, name '',
        // total 0 unless posted), an existing one keeps its product.
        if (!existing) {
          existing = blankLine(store, quantity);
          o.line_items.push(existing);
        }
      } else {
        const sellable = variation ?? product;
        const changed =
          !existing || existing.product_id !== product.id || existing.variation_id !== (variation?.id ?? 0);
        if (changed) {
          recompute = !existing;
          const base: LineItem = existing ?? blankLine(store, quantity);
          base.product_id = product.id;
          base.variation_id = variation?.id ?? 0;
          base.name = variation ? variationName(store, variation) : product.name;
          base.sku = sellable.sku;
          base.tax_class = taxClassOf(store, sellable);
          if (!existing) {
            o.line_items.push(base);
            existing = base;
          }
        }
      }
    }
    const li = existing!;
    li.quantity = quantity;
    if (recompute) {
      const sellable = store.state.variations.get(li.variation_id) ?? store.state.products.get(li.product_id);
      const total = sellable ? linePrice(store, sellable, quantity) : 0;
      li.subtotal = total;
      li.total = total;
    }
    if (typeof item.name === 'string') li.name = item.name;
    if (typeof item.tax_class === 'string') li.tax_class = item.tax_class;
    // prepare_line_items() sets total before subtotal. WC_Order_Item_Product::set_total()/set_subtotal() store
    // wc_format_decimal($value), 0 when that is not numeric ("1e-7" gives "1-7", so 0), and a total above the
    // subtotal raises the subtotal to it.
    if (typeof item.total === 'string') {
      li.total = itemAmount(item.total);
      if (li.subtotal < li.total) li.subtotal = li.total;
    }
    if (typeof item.subtotal === 'string') li.subtotal = itemAmount(item.subtotal);
    if (item.meta_data !== undefined) li.meta_data = applyMeta(store, li.meta_data, item.meta_data);
  }
}

/** What tells shipping and fee lines apart: the field a new line must have, its blank record, the fields copied. */
interface LineKind<T extends { id: number; meta_data: Meta[] }> {
  required: string;
  code: string;
  message: string;
  blank: (id: number) => T;
  copy: (line: T, item: Record<string, unknown>) => void;
}

export const SHIPPING_LINE: LineKind<ShippingLine> = {
  required: 'method_id',
  code: 'woocommerce_rest_invalid_shipping_item',
  message: 'Shipping method ID is required.',
  blank: (id) => ({
    id,
    method_title: '',
    method_id: '',
    instance_id: '',
    total: 0,
    total_tax: 0,
    taxes: { total: {}, subtotal: {} },
    meta_data: [],
  }),
  copy: (line, l) => {
    if (typeof l.method_title === 'string') line.method_title = l.method_title;
    if (typeof l.method_id === 'string') line.method_id = l.method_id;
    if (typeof l.instance_id === 'string') line.instance_id = l.instance_id;
    if (typeof l.total === 'string') line.total = phpFloatval(wcFormatDecimal(l.total));
  },
};

export const FEE_LINE: LineKind<FeeLine> = {
  required: 'name',
  code: 'woocommerce_rest_invalid_fee_item',
  message: 'Fee name is required.',
  blank: (id) => ({
    id,
    name: '',
    tax_class: '',
    tax_status: 'taxable',
    amount: '',
    total: 0,
    total_tax: 0,
    taxes: { total: {}, subtotal: {} },
    meta_data: [],
  }),
  copy: (line, l) => {
    if (typeof l.name === 'string') line.name = l.name;
    if (typeof l.tax_class === 'string') line.tax_class = l.tax_class;
    if (typeof l.tax_status === 'string') line.tax_status = l.tax_status;
    if (typeof l.total === 'string') {
      line.amount = wcFormatDecimal(l.total);
      line.total = phpFloatval(line.amount);
    }
  },
};

/** Updates, removes (all fields null or 0) or adds shipping/fee lines; returns the order's new list of them. */
export function applyLines<T extends { id: number; meta_data: Meta[] }>(
  store: Store,
  lines: T[],
  items: Record<string, unknown>[],
  kind: LineKind<T>,
): T[] {
  for (const l of items) {
    let line = findLine(lines, l);
    if (line && removesLine(l)) {
      const id = line.id;
      lines = lines.filter((x) => x.id !== id);
      continue;
    }
    if (!line) {
      const required = l[kind.required];
      if (typeof required !== 'string' || required === '') throw new RestError(400, kind.code, kind.message);
      line = kind.blank(nextId(store.state, 'item'));
      lines.push(line);
    }
    kind.copy(line, l);
    if (l.meta_data !== undefined) line.meta_data = applyMeta(store, line.meta_data, l.meta_data);
  }
  return lines;
}
