/**
 * WC_Discounts for an order (includes/class-wc-discounts.php): coupon validation (is_coupon_valid() and its
 * validate_coupon_*() steps) and the per-item discount arithmetic in cents (apply_coupon_percent(),
 * apply_coupon_fixed_product(), apply_coupon_fixed_cart(), apply_coupon_remainder()), with
 * WC_Coupon::is_valid_for_product() deciding which items a product coupon touches.
 */

import { isOnSale, variationName } from '../catalog/prices.js';
import { getOption } from '../data/options.js';
import type { LineItem, OrderRec } from '../data/order-rows.js';
import type { CouponRec, ProductRec, VariationRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { RestError } from '../runtime/errors.js';
import { phpRound } from '../runtime/numbers.js';
import { applyRemainder } from './discount-remainder.js';
import { wcPrice } from './price-format.js';
import { priceDecimals, roundingPrecision } from './tax-math.js';

/** An order line as WC_Discounts::set_items_from_order() normalises it (price = line subtotal in cents). */
interface DiscountItem {
  key: number;
  line: LineItem;
  product: ProductRec | undefined;
  variation: VariationRec | undefined;
  quantity: number;
  price: number;
}

/** Discounts in cents per coupon code and line item id, in the order the coupons were applied. */
export type DiscountTable = Map<string, Map<number, number>>;

export class Discounts {
  readonly items: DiscountItem[];
  readonly discounts: DiscountTable = new Map();
  readonly #store: Store;
  readonly #order: OrderRec;
  readonly #cents: number;

  constructor(store: Store, order: OrderRec) {
    this.#store = store;
    this.#order = order;
    this.#cents = 10 ** priceDecimals(store);
    const items = order.line_items.map((line) => {
      const variation = store.state.variations.get(line.variation_id);
      let price = this.toCents(line.subtotal);
      if (order.prices_include_tax) price += this.toCents(line.subtotal_tax);
      return {
        key: line.id,
        line,
        product: store.state.products.get(line.product_id),
        variation,
        quantity: line.quantity,
        price,
      };
    });
    // uasort( sort_by_price ): price × quantity, highest first; PHP 8's sort keeps equal items in order.
    this.items = items
      .map((item, index) => ({ item, index }))
      .sort((a, b) => b.item.price * b.item.quantity - a.item.price * a.item.quantity || a.index - b.index)
      .map(({ item }) => item);
  }

  /** wc_add_number_precision(): into cents, rounded to the rounding precision less the price decimals. */
  toCents(value: number): number {
    const precision = roundingPrecision(this.#store) - priceDecimals(this.#store);
    return phpRound(value * this.#cents, precision);
  }

  fromCents(value: number): number {
    return value / this.#cents;
  }

  /** The discount of one item so far, all coupons together (get_discount()); `own` stands for `mine`'s. */
  discountOf(key: number, mine?: Map<number, number>, own = 0): number {
    let total = 0;
    for (const byItem of this.discounts.values()) total += byItem === mine ? own : (byItem.get(key) ?? 0);
    return total;
  }

  /** get_discounted_price_in_cents(). */
  discountedPrice(item: DiscountItem): number {
    return Math.abs(Math.trunc(phpRound(item.price - this.discountOf(item.key))));
  }

  /** is_coupon_valid(): throws the 400 the REST controller turns it into (`woocommerce_rest_invalid_coupon`). */
  validate(coupon: CouponRec): void {
    const fail = (message: string): never => {
      throw new RestError(400, 'woocommerce_rest_invalid_coupon', message);
    };
    const o = this.#order;
    if (coupon.usage_limit && coupon.usage_count >= coupon.usage_limit) {
      fail(usageLimitReached(coupon.code));
    }
    if (o.customer_id && coupon.usage_limit_per_user && coupon.usage_limit_per_user > 0) {
      const uses = coupon.used_by.filter((u) => u === String(o.customer_id)).length;
      if (uses >= coupon.usage_limit_per_user) fail(usageLimitReached(coupon.code));
    }
    if (coupon.date_expires !== null && Date.now() > coupon.date_expires) fail('This coupon has expired.');
    const subtotal = this.#orderSubtotal();
    const minimum = Number.parseFloat(coupon.minimum_amount) || 0;
    if (minimum > 0 && minimum > subtotal) {
      fail(`The minimum spend for this coupon is ${wcPrice(this.#store, minimum)}.`);
    }
    const maximum = Number.parseFloat(coupon.maximum_amount) || 0;
    if (maximum > 0 && maximum < subtotal) {
      fail(`The maximum spend for this coupon is ${wcPrice(this.#store, maximum)}.`);
    }
    const notApplicable = 'Sorry, this coupon is not applicable to selected products.';
    if (coupon.product_ids.length > 0) {
      const any = this.items.some(
        (i) =>
          i.product && (coupon.product_ids.includes(idOf(i)) || coupon.product_ids.includes(parentOf(i))),
      );
      if (!any) fail(notApplicable);
    }
    if (coupon.product_categories.length > 0) {
      const any = this.items.some((i) => {
        if (!i.product) return false;
        if (coupon.exclude_sale_items && this.#onSale(i)) return false;
        return this.#categories(i).some((c) => coupon.product_categories.includes(c));
      });
      if (!any) fail(notApplicable);
    }
    const productCoupon = coupon.discount_type === 'percent' || coupon.discount_type === 'fixed_product';
    if (this.items.length > 0 && productCoupon) {
      if (!this.items.some((i) => i.product && this.validForProduct(coupon, i))) fail(notApplicable);
    }
    if (!productCoupon) {
      if (coupon.exclude_sale_items && this.items.some((i) => i.product && this.#onSale(i))) {
        fail('Sorry, this coupon is not valid for sale items.');
      }
      if (coupon.excluded_product_ids.length > 0) {
        const names = this.items
          .filter(
            (i) =>
              coupon.excluded_product_ids.includes(idOf(i)) ||
              coupon.excluded_product_ids.includes(parentOf(i)),
          )
          .map((i) => (i.variation ? variationName(this.#store, i.variation) : (i.product?.name ?? '')));
        if (names.length > 0)
          fail(`Sorry, this coupon is not applicable to the products: ${names.join(', ')}.`);
      }
      if (coupon.excluded_product_categories.length > 0) {
        const names = new Set<string>();
        for (const i of this.items) {
          if (!i.product) continue;
          for (const c of this.#categories(i)) {
            if (coupon.excluded_product_categories.includes(c))
              names.add(this.#store.state.terms.get(c)?.name ?? '');
          }
        }
        if (names.size > 0)
          fail(`Sorry, this coupon is not applicable to the categories: ${[...names].join(', ')}.`);
      }
    }
  }

  /** WC_Coupon::is_valid_for_product(): false for a cart coupon; otherwise the product/category rules. */
  validForProduct(coupon: CouponRec, item: DiscountItem): boolean {
    if (coupon.discount_type !== 'percent' && coupon.discount_type !== 'fixed_product') return false;
    if (!item.product) return false;
    const ids = [idOf(item), parentOf(item)];
    const cats = this.#categories(item);
    let valid = false;
    if (coupon.product_ids.length && ids.some((id) => coupon.product_ids.includes(id))) valid = true;
    if (coupon.product_categories.length && cats.some((c) => coupon.product_categories.includes(c)))
      valid = true;
    if (!coupon.product_ids.length && !coupon.product_categories.length) valid = true;
    if (coupon.excluded_product_ids.length && ids.some((id) => coupon.excluded_product_ids.includes(id)))
      valid = false;
    if (
      coupon.excluded_product_categories.length &&
      cats.some((c) => coupon.excluded_product_categories.includes(c))
    )
      valid = false;
    if (coupon.exclude_sale_items && this.#onSale(item)) valid = false;
    return valid;
  }

  /** apply_coupon( $coupon, false ): the coupon's discount per item, added to what earlier coupons took. */
  apply(coupon: CouponRec): void {
    const byItem = this.discounts.get(coupon.code) ?? new Map(this.items.map((i) => [i.key, 0]));
    this.discounts.set(coupon.code, byItem);
    const items = this.items.filter(
      (i) =>
        this.discountedPrice(i) !== 0 &&
        i.quantity > 0 &&
        (this.validForProduct(coupon, i) || coupon.discount_type === 'fixed_cart'),
    );
    if (coupon.discount_type === 'percent') this.#percent(coupon, items, byItem);
    else if (coupon.discount_type === 'fixed_product') this.#fixedProduct(coupon, items, byItem);
    else if (coupon.discount_type === 'fixed_cart') this.#fixedCart(coupon, items, byItem);
  }

  #sequential(): boolean {
    return getOption(this.#store, 'woocommerce_calc_discounts_sequentially') === 'yes';
  }

  #limit(coupon: CouponRec): number {
    return coupon.limit_usage_to_x_items ?? 0;
  }

  #percent(coupon: CouponRec, items: DiscountItem[], byItem: Map<number, number>): number {
    const amount = Number.parseFloat(coupon.amount) || 0;
    const limit = this.#limit(coupon);
    let applied = 0;
    let cartTotal = 0;
    let total = 0;
    for (const item of items) {
      const discounted = this.discountedPrice(item);
      let priceToDiscount = this.#sequential() ? discounted : phpRound(item.price);
      const quantity = limit ? Math.min(limit - applied, item.quantity) : item.quantity;
      const applyQuantity = Math.max(0, quantity);
      priceToDiscount = (priceToDiscount / item.quantity) * applyQuantity;
      const discount = roundDiscount(Math.min(discounted, Math.floor(priceToDiscount * (amount / 100))));
      cartTotal += priceToDiscount;
      total += discount;
      applied += applyQuantity;
      addTo(byItem, item, discount);
    }
    // What the whole cart would have been discounted, against the sum of the floored item discounts.
    const cartDiscount = roundDiscount(cartTotal * (amount / 100));
    if (total < cartDiscount) total += this.#remainder(items, cartDiscount - total, byItem);
    return total;
  }

  #fixedProduct(
    coupon: CouponRec,
    items: DiscountItem[],
    byItem: Map<number, number>,
    amountIn?: number,
  ): number {
    const amount = amountIn ? amountIn : this.toCents(Number.parseFloat(coupon.amount) || 0);
    const limit = this.#limit(coupon);
    let applied = 0;
    let total = 0;
    for (const item of items) {
      const discounted = this.discountedPrice(item);
      let discount: number;
      let applyQuantity: number;
      if (limit) {
        applyQuantity = Math.max(0, Math.min(limit - applied, item.quantity));
        discount = Math.min(amount, item.price / item.quantity) * applyQuantity;
      } else {
        applyQuantity = item.quantity;
        discount = amount * applyQuantity;
      }
      discount = Math.min(discounted, discount);
      total += discount;
      applied += applyQuantity;
      addTo(byItem, item, discount);
    }
    return total;
  }

  #fixedCart(
    coupon: CouponRec,
    itemsIn: DiscountItem[],
    byItem: Map<number, number>,
    amountIn?: number,
  ): number {
    const amount = amountIn ? amountIn : this.toCents(Number.parseFloat(coupon.amount) || 0);
    const items = itemsIn.filter((i) => this.discountedPrice(i) > 0);
    const count = items.reduce((s, i) => s + i.quantity, 0);
    if (!count) return 0;
    if (!amount) return this.#fixedProduct(coupon, items, byItem, 0);
    let total = 0;
    // absint( $amount / $item_count ): round down to the nearest cent.
    const perItem = Math.abs(Math.trunc(amount / count));
    if (perItem > 0) {
      total = this.#fixedProduct(coupon, items, byItem, perItem);
      if (total > 0 && total < amount) total += this.#fixedCart(coupon, items, byItem, amount - total);
    } else if (amount > 0) {
      total += this.#remainder(items, amount, byItem);
    }
    return total;
  }

  /** apply_coupon_remainder(): a cent at a time over the items (and their units) until `amount` is used up. */
  #remainder(items: DiscountItem[], amount: number, byItem: Map<number, number>): number {
    return applyRemainder(
      items.map((item) => ({
        quantity: item.quantity,
        own: () => byItem.get(item.key) ?? 0,
        setOwn: (value: number) => byItem.set(item.key, value),
        leftoverAt: (own: number) => phpRound(item.price - this.discountOf(item.key, byItem, own)),
      })),
      amount,
    );
  }

  /** get_object_subtotal() of an order: its subtotal, plus its tax when prices include tax. */
  #orderSubtotal(): number {
    const dp = priceDecimals(this.#store);
    let cents = 0;
    // get_rounded_items_total(): each line to the cent, unless taxes round at the subtotal.
    const perLine = getOption(this.#store, 'woocommerce_tax_round_at_subtotal') !== 'yes';
    for (const line of this.#order.line_items) {
      const value = line.subtotal * this.#cents;
      cents += perLine ? phpRound(value) : value;
    }
    let subtotal = phpRound(cents / this.#cents, dp);
    if (this.#order.prices_include_tax) subtotal += phpRound(this.#order.total_tax, dp);
    return subtotal;
  }

  #categories(item: DiscountItem): number[] {
    return item.product ? item.product.categories : [];
  }

  #onSale(item: DiscountItem): boolean {
    const sellable = item.variation ?? item.product;
    return sellable ? isOnSale(sellable) : false;
  }
}

function addTo(byItem: Map<number, number>, item: DiscountItem, cents: number): void {
  byItem.set(item.key, (byItem.get(item.key) ?? 0) + cents);
}

function idOf(item: DiscountItem): number {
  return item.variation?.id ?? item.product?.id ?? 0;
}

function parentOf(item: DiscountItem): number {
  return item.variation ? item.variation.parent_id : 0;
}

/** WC_Coupon::get_coupon_error( E_WC_COUPON_USAGE_LIMIT_REACHED ): esc_html__() leaves the quotes as entities. */
export function usageLimitReached(code: string): string {
  return `Usage limit for coupon &quot;${code}&quot; has been reached.`;
}

/** wc_round_discount( $value, 0 ): WC_DISCOUNT_ROUNDING_MODE is PHP_ROUND_HALF_DOWN. */
function roundDiscount(value: number): number {
  return phpRound(value, 0, 'half_down');
}
