/**
 * Order totals, taxes and coupon discounts as WC_Abstract_Order computes them (abstracts/abstract-wc-order.php):
 * calculate_totals(), calculate_taxes(), update_taxes(), get_tax_location(), recalculate_coupons(),
 * set_item_discount_amounts() and set_coupon_discount_amounts(); the item side is WC_Order_Item::calculate_taxes()
 * and the items' set_taxes() (class-wc-order-item-product.php, -shipping.php, -fee.php).
 */

import { getOption } from '../data/options.js';
import type { CouponLine, ItemTaxes, LineItem, OrderRec, TaxLine } from '../data/order-rows.js';
import type { CouponRec, Meta } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { nextId } from '../data/tables.js';
import { blankCoupon, findCouponByCode } from '../pricing/coupons.js';
import { Discounts } from '../pricing/discounts.js';
import {
  baseLocation,
  calcTax,
  findRates,
  type MatchedRate,
  priceDecimals,
  rateFields,
  roundTaxTotal,
  sum,
  type TaxLocation,
  taxEnabled,
} from '../pricing/tax-math.js';
import { taxClassSlugs } from '../pricing/taxes.js';
import { phpRound, storedAmount } from '../runtime/numbers.js';

const PICKUP_METHODS = ['legacy_local_pickup', 'local_pickup', 'pickup_location'];

/** get_tax_location(): shipping address (billing without one, or if so configured), else the shop's base. */
export function taxLocation(store: Store, o: OrderRec): TaxLocation {
  let basedOn = String(getOption(store, 'woocommerce_tax_based_on'));
  if (basedOn === 'shipping' && !o.shipping.country) basedOn = 'billing';
  const address = basedOn === 'billing' ? o.billing : o.shipping;
  // Local pickup is taxed where the shop is (woocommerce_apply_base_tax_for_local_pickup defaults to true);
  // woocommerce_local_pickup_methods: legacy_local_pickup, local_pickup, and the blocks' pickup_location.
  const pickup = o.shipping_lines.some((l) => PICKUP_METHODS.includes(l.method_id));
  if (basedOn === 'base' || pickup || !address.country) return baseLocation(store);
  return { country: address.country, state: address.state, postcode: address.postcode, city: address.city };
}

/** WC_Order_Item_Product::get_tax_status(): the product's, `taxable` without one. */
function lineTaxStatus(store: Store, li: LineItem): string {
  return store.state.products.get(li.product_id)?.tax_status ?? 'taxable';
}

function roundAtSubtotal(store: Store): boolean {
  return getOption(store, 'woocommerce_tax_round_at_subtotal') === 'yes';
}

function toRecord(taxes: Map<number, number>): Record<string, number> {
  return Object.fromEntries([...taxes].map(([id, tax]) => [String(id), tax]));
}

/** The items' set_taxes(): subtotal taxes never below the totals; line tax totals rounded per rate unless at subtotal. */
function setTaxes(
  store: Store,
  item: { taxes: ItemTaxes; total_tax: number; subtotal_tax?: number },
  total: Map<number, number> | null,
  subtotal: Map<number, number> | null,
): void {
  const taxes: ItemTaxes = {
    total: total ? toRecord(total) : {},
    subtotal: subtotal ? toRecord(subtotal) : {},
  };
  if (subtotal && sum(Object.values(taxes.subtotal)) < sum(Object.values(taxes.total)))
    taxes.subtotal = { ...taxes.total };
  item.taxes = taxes;
  const add = (values: Record<string, number>) =>
    roundAtSubtotal(store)
      ? sum(Object.values(values))
      : sum(Object.values(values).map((t) => roundTaxTotal(store, t)));
  item.total_tax = add(taxes.total);
  if ('subtotal_tax' in item) item.subtotal_tax = add(taxes.subtotal);
}

function ratesFor(store: Store, o: OrderRec, taxClass: string): MatchedRate[] {
  return findRates(store, taxLocation(store, o), taxClass);
}

/** calculate_taxes(): every line's, fee's and shipping line's taxes, then update_taxes(). */
export function calculateTaxes(store: Store, o: OrderRec): void {
  const enabled = taxEnabled(store);
  let shippingClass: string | false = String(getOption(store, 'woocommerce_shipping_tax_class'));
  if (shippingClass === 'inherit') {
    // The first of the standard class and the store's classes that an item uses (array_intersect keeps that order).
    const used = new Set(
      o.line_items
        .filter((li) => ['taxable', 'shipping'].includes(lineTaxStatus(store, li)))
        .map((li) => li.tax_class),
    );
    const slugs = taxClassSlugs(store);
    shippingClass = slugs.find((s) => used.has(s)) ?? (o.line_items.length === 0 ? '' : false);
  }
  for (const li of o.line_items) {
    if (enabled && li.tax_class !== '0' && lineTaxStatus(store, li) === 'taxable') {
      const rates = ratesFor(store, o, li.tax_class);
      setTaxes(store, li, calcTax(store, li.total, rates, false), calcTax(store, li.subtotal, rates, false));
    } else setTaxes(store, li, null, null);
  }
  for (const fee of o.fee_lines) {
    if (fee.total < 0) setTaxes(store, fee, enabled ? negativeFeeTaxes(store, o, fee.total) : null, null);
    else if (enabled && fee.tax_class !== '0' && fee.tax_status === 'taxable') {
      setTaxes(store, fee, calcTax(store, fee.total, ratesFor(store, o, fee.tax_class), false), null);
    } else setTaxes(store, fee, null, null);
  }
  for (const line of o.shipping_lines) {
    if (enabled && shippingClass !== false) {
      const rates = ratesFor(store, o, shippingClass).filter((r) => r.shipping);
      setTaxes(store, line, calcTax(store, line.total, rates, false), null);
    } else setTaxes(store, line, null, null);
  }
  updateTaxes(store, o);
}

/**
 * WC_Order_Item_Fee::calculate_taxes() for a negative fee: the fee is split over the tax classes in proportion to
 * what the order's items, fees and shipping (those not negative) cost in each (get_tax_class_costs()), and each
 * share is taxed at its class's rates, so a discount given as a fee takes its tax off too.
 */
function negativeFeeTaxes(store: Store, o: OrderRec, total: number): Map<number, number> {
  const classes = itemsTaxClasses(store, o);
  const costs = new Map<string, number>(classes.map((c) => [c, 0]));
  costs.set('non-taxable', 0);
  const add = (key: string, value: number) => costs.set(key, (costs.get(key) ?? 0) + value);
  for (const li of o.line_items) {
    if (li.total < 0) continue;
    if (lineTaxStatus(store, li) !== 'taxable') add('non-taxable', li.total);
    else add(li.tax_class, li.total);
  }
  for (const fee of o.fee_lines) {
    if (fee.total < 0) continue;
    if (fee.tax_status !== 'taxable') add('non-taxable', fee.total);
    else add(fee.tax_class, fee.total);
  }
  const shippingClass = String(getOption(store, 'woocommerce_shipping_tax_class'));
  for (const line of o.shipping_lines) {
    if (line.total < 0) continue;
    add(shippingClass === 'inherit' ? (classes[0] ?? '') : shippingClass, line.total);
  }
  const all = sum(costs.values());
  const taxes = new Map<number, number>();
  if (!all) return taxes;
  for (const [taxClass, cost] of costs) {
    if (taxClass === 'non-taxable' || !cost) continue;
    for (const [id, tax] of calcTax(store, total * (cost / all), ratesFor(store, o, taxClass), false)) {
      taxes.set(id, (taxes.get(id) ?? 0) + tax);
    }
  }
  return taxes;
}

/** get_items_tax_classes(): the classes of the lines that are taxable (or taxed on shipping only), once each. */
function itemsTaxClasses(store: Store, o: OrderRec): string[] {
  const used = o.line_items
    .filter((li) => ['taxable', 'shipping'].includes(lineTaxStatus(store, li)))
    .map((li) => li.tax_class);
  return [...new Set(used)];
}

/** update_taxes(): one tax line per rate the items or shipping use, existing lines (and their ids) kept. */
function updateTaxes(store: Store, o: OrderRec): void {
  const cart = new Map<number, number>();
  const shipping = new Map<number, number>();
  const round = (t: number) => (roundAtSubtotal(store) ? t : roundTaxTotal(store, t));
  for (const item of [...o.line_items, ...o.fee_lines]) {
    for (const [id, tax] of Object.entries(item.taxes.total))
      cart.set(Number(id), (cart.get(Number(id)) ?? 0) + round(tax));
  }
  for (const line of o.shipping_lines) {
    for (const [id, tax] of Object.entries(line.taxes.total))
      shipping.set(Number(id), (shipping.get(Number(id)) ?? 0) + round(tax));
  }
  const ids = [...new Set([...cart.keys(), ...shipping.keys()])];
  const kept: TaxLine[] = [];
  for (const line of o.tax_lines) {
    if (!ids.includes(line.rate_id) || kept.some((k) => k.rate_id === line.rate_id)) continue;
    kept.push(line);
  }
  for (const id of ids) {
    if (kept.some((k) => k.rate_id === id)) continue;
    kept.push({
      id: nextId(store.state, 'item'),
      rate_id: id,
      ...rateFields(store, id),
      tax_total: 0,
      shipping_tax_total: 0,
      meta_data: [],
    });
  }
  for (const line of kept) {
    Object.assign(line, rateFields(store, line.rate_id));
    line.tax_total = cart.get(line.rate_id) ?? 0;
    line.shipping_tax_total = shipping.get(line.rate_id) ?? 0;
  }
  o.tax_lines = kept;
  o.shipping_tax = sum(shipping.values());
  o.cart_tax = sum(cart.values());
  o.total_tax = phpRound(o.cart_tax + o.shipping_tax, priceDecimals(store));
}

/** get_rounded_items_total(): the lines' `field`, each rounded to the cent unless taxes round at subtotal. */
function itemsTotal(store: Store, o: OrderRec, field: 'subtotal' | 'total'): number {
  const cents = 10 ** priceDecimals(store);
  const values = o.line_items.map((li) => li[field] * cents);
  return sum(values.map((v) => (roundAtSubtotal(store) ? v : phpRound(v)))) / cents;
}

/** calculate_totals( true ): shipping, fees, taxes, then the discount and grand totals. */
export function calculateTotals(store: Store, o: OrderRec): void {
  const dp = priceDecimals(store);
  const cartSubtotal = itemsTotal(store, o, 'subtotal');
  const cartTotal = itemsTotal(store, o, 'total');
  o.shipping_total = sum(o.shipping_lines.map((l) => phpRound(l.total, dp)));
  let fees = 0;
  for (const fee of o.fee_lines) {
    if (fee.total < 0) {
      // A negative fee cannot take the order below zero.
      const maxDiscount = phpRound(cartTotal + fees + o.shipping_total, dp) * -1;
      if (fee.total < maxDiscount && maxDiscount < 0) fee.total = storedAmount(maxDiscount);
    }
    fees += fee.total;
  }
  calculateTaxes(store, o);
  const totalTax = sum(o.line_items.flatMap((li) => Object.values(li.taxes.total)));
  const subtotalTax = sum(o.line_items.flatMap((li) => Object.values(li.taxes.subtotal)));
  o.discount_total = phpRound(cartSubtotal - cartTotal, dp);
  o.discount_tax = roundTaxTotal(store, subtotalTax - totalTax);
  o.total = phpRound(cartTotal + fees + o.shipping_total + o.cart_tax + o.shipping_tax, dp);
}

/** The coupon a coupon line re-applies: the published one with its code, else one rebuilt from `coupon_info`. */
function couponForLine(store: Store, o: OrderRec, line: CouponLine): CouponRec {
  const published = findCouponByCode(store, line.code);
  if (published) return published;
  const info = line.meta_data.find((m) => m.key === 'coupon_info')?.value;
  const [, , type, amount, freeShipping] = typeof info === 'string' ? (JSON.parse(info) as unknown[]) : [];
  const coupon = { ...blankCoupon(0, 0), code: line.code };
  coupon.discount_type = typeof type === 'string' ? type : 'fixed_cart';
  coupon.amount = String(typeof amount === 'number' ? amount : 0);
  coupon.free_shipping = freeShipping === true;
  if (!(Number.parseFloat(coupon.amount) > 0)) {
    // No amount to go on: the discount it gave before, as a fixed cart discount.
    coupon.amount = String(o.prices_include_tax ? line.discount + line.discount_tax : line.discount);
    coupon.discount_type = 'fixed_cart';
  }
  return coupon;
}

/** WC_Coupon::get_short_info(): [id, code, type unless fixed_cart, amount, free shipping if set], as JSON. */
export function couponShortInfo(c: CouponRec): string {
  const info: unknown[] = [
    c.id,
    c.code,
    c.discount_type === 'fixed_cart' ? null : c.discount_type,
    Number(c.amount) || 0,
  ];
  if (c.free_shipping) info.push(true);
  return JSON.stringify(info);
}

/** recalculate_coupons(): line totals back to their subtotals, every coupon applied again, then the totals. */
export function recalculateCoupons(store: Store, o: OrderRec): void {
  for (const li of o.line_items) {
    li.total = li.subtotal;
    li.total_tax = li.subtotal_tax;
  }
  const discounts = new Discounts(store, o);
  for (const line of o.coupon_lines) discounts.apply(couponForLine(store, o, line));
  setCouponDiscountAmounts(store, o, discounts);
  setItemDiscountAmounts(store, o, discounts);
  calculateTotals(store, o);
}

/** set_item_discount_amounts(): each line's total less its discount (less the discount's tax, prices incl. tax). */
function setItemDiscountAmounts(store: Store, o: OrderRec, discounts: Discounts): void {
  for (const li of o.line_items) {
    let amount = discounts.fromCents(discounts.discountOf(li.id));
    if (amount === 0) continue;
    if (o.prices_include_tax && taxEnabled(store) && lineTaxStatus(store, li) === 'taxable') {
      amount -= sum(calcTax(store, amount, ratesFor(store, o, li.tax_class), true).values());
    }
    li.total = storedAmount(Math.max(0, li.total - amount));
  }
}

/** set_coupon_discount_amounts(): each coupon line's discount and the tax that discount removed. */
export function setCouponDiscountAmounts(store: Store, o: OrderRec, discounts: Discounts): void {
  for (const [code, byItem] of discounts.discounts) {
    let line = o.coupon_lines.find((l) => l.code === code);
    if (!line) {
      const coupon = findCouponByCode(store, code);
      const meta: Meta[] = coupon
        ? [{ id: nextId(store.state, 'meta'), key: 'coupon_info', value: couponShortInfo(coupon) }]
        : [];
      line = { id: nextId(store.state, 'item'), code, discount: 0, discount_tax: 0, meta_data: meta };
      o.coupon_lines.push(line);
    }
    let amount = discounts.fromCents(sum(byItem.values()));
    let discountTax = 0;
    for (const [itemId, cents] of byItem) {
      const li = o.line_items.find((x) => x.id === itemId);
      if (!li || lineTaxStatus(store, li) !== 'taxable' || !taxEnabled(store)) continue;
      let taxes = sum(
        calcTax(
          store,
          discounts.fromCents(cents),
          ratesFor(store, o, li.tax_class),
          o.prices_include_tax,
        ).values(),
      );
      if (!roundAtSubtotal(store)) taxes = roundTaxTotal(store, taxes);
      discountTax += taxes;
      if (o.prices_include_tax) amount -= taxes;
    }
    line.discount = storedAmount(amount);
    line.discount_tax = storedAmount(discountTax);
  }
}
