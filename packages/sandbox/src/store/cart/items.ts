/**
 * What goes into a Store API cart: StoreApi/Utilities/CartController.php add_to_cart(), set_cart_item_quantity()
 * and validate_add_to_cart() / validate_cart_item(), with their RouteException codes. Each rule names the check
 * it repeats.
 */

import { createHash } from 'node:crypto';
import { effectiveStockStatus, productStockStatus } from '../catalog/stock.js';
import { getOption } from '../data/options.js';
import type { ProductRec, VariationRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { RestError } from '../runtime/errors.js';
import type { Cart, CartItem } from './session.js';

function fail(code: string, message: string, status = 400): RestError {
  return new RestError(status, code, message);
}

/** WC_Cart::generate_cart_id(): md5 of `product_id` and, for a variation, `_variation_id`. */
export function itemKey(productId: number, variationId: number): string {
  const parts = variationId ? `${productId}_${variationId}` : String(productId);
  return createHash('md5').update(parts).digest('hex');
}

/** The product and variation an `id` names: a variation id resolves to its parent and itself. */
export function resolveSellable(
  store: Store,
  id: number,
): { product: ProductRec; variation: VariationRec | null } | null {
  const v = store.state.variations.get(id);
  if (v) {
    const parent = store.state.products.get(v.parent_id);
    return parent ? { product: parent, variation: v } : null;
  }
  const p = store.state.products.get(id);
  return p ? { product: p, variation: null } : null;
}

/** WC_Product::is_purchasable(): published (or private), and priced. */
function purchasable(product: ProductRec, variation: VariationRec | null): boolean {
  if (!['publish', 'private'].includes(product.status)) return false;
  if (variation) return variation.status === 'publish' && variation.regular_price !== '';
  if (product.type === 'variable' || product.type === 'grouped' || product.type === 'external') return false;
  return product.regular_price !== '';
}

/** How many of it may be in the cart: the managed stock without backorders, else no limit. */
export function stockLimit(product: ProductRec, variation: VariationRec | null): number | null {
  const holder = variation?.manage_stock === true ? variation : product.manage_stock ? product : null;
  if (holder?.backorders !== 'no') return null;
  return Math.max(0, holder.stock_quantity ?? 0);
}

/** validate_add_to_cart() and validate_cart_item(): purchasable, in stock, enough stock, sold individually. */
function validate(store: Store, product: ProductRec, variation: VariationRec | null, quantity: number): void {
  const name = product.name;
  if (!purchasable(product, variation)) {
    throw fail('woocommerce_rest_product_not_purchasable', `The "${name}" product cannot be purchased.`);
  }
  const status = variation ? effectiveStockStatus(store, variation) : productStockStatus(store, product);
  if (status === 'outofstock') {
    throw fail(
      'woocommerce_rest_product_out_of_stock',
      `You cannot add "${name}" to the cart because the product is out of stock.`,
    );
  }
  const limit = stockLimit(product, variation);
  if (limit !== null && quantity > limit) {
    throw fail(
      'woocommerce_rest_product_partially_out_of_stock',
      `You cannot add that amount of "${name}" to the cart because there is not enough stock (${limit} remaining).`,
    );
  }
  if (product.sold_individually && quantity > 1) {
    throw fail(
      'woocommerce_rest_product_sold_individually',
      `You cannot add another "${name}" to your cart.`,
    );
  }
}

/** A positive whole quantity (the schema's `quantity` is an integer with a minimum of 1 for add-item). */
export function quantityArg(value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) {
    throw new RestError(400, 'rest_invalid_param', 'Invalid parameter(s): quantity', {
      params: { quantity: 'quantity must be greater than or equal to 1' },
    });
  }
  return n;
}

/**
 * add_to_cart(): an unknown id is `woocommerce_rest_cart_invalid_product`; adding what is already there raises
 * that line's quantity (same cart id), validated as a whole.
 */
export function addItem(store: Store, cart: Cart, id: unknown, quantity: number): CartItem {
  const numeric = typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id;
  const found =
    typeof numeric === 'number' && Number.isSafeInteger(numeric) ? resolveSellable(store, numeric) : null;
  if (!found || found.product.status === 'trash') {
    throw fail('woocommerce_rest_cart_invalid_product', 'This product cannot be added to the cart.');
  }
  const { product, variation } = found;
  const key = itemKey(product.id, variation?.id ?? 0);
  const existing = cart.items.find((i) => i.key === key);
  validate(store, product, variation, (existing?.quantity ?? 0) + quantity);
  if (existing) {
    existing.quantity += quantity;
    return existing;
  }
  const item = { key, product_id: product.id, variation_id: variation?.id ?? 0, quantity };
  cart.items.push(item);
  return item;
}

/** The cart line with this key, or CartController::get_cart_item()'s failure with the route's status. */
export function findItem(cart: Cart, key: unknown, status: number): CartItem {
  const item = typeof key === 'string' ? cart.items.find((i) => i.key === key) : undefined;
  if (!item) {
    const message = status === 404 ? 'Invalid cart item key.' : 'Cart item no longer exists or is invalid.';
    throw fail('woocommerce_rest_cart_invalid_key', message, status);
  }
  return item;
}

/** set_cart_item_quantity(): the new quantity, validated against stock like an add. */
export function updateItem(store: Store, cart: Cart, key: unknown, quantity: number): CartItem {
  const item = findItem(cart, key, 409);
  const found = resolveSellable(store, item.variation_id || item.product_id);
  if (!found)
    throw fail('woocommerce_rest_cart_invalid_product', 'This product cannot be added to the cart.');
  validate(store, found.product, found.variation, quantity);
  item.quantity = quantity;
  return item;
}

export function removeItem(cart: Cart, key: unknown): void {
  const item = findItem(cart, key, 409);
  cart.items = cart.items.filter((i) => i !== item);
}

/** WC_Cart::needs_shipping(): shipping is on and an item is not virtual. */
export function needsShipping(store: Store, cart: Cart): boolean {
  if (getOption(store, 'woocommerce_ship_to_countries') === 'disabled') return false;
  return cart.items.some((i) => {
    const s = store.state.variations.get(i.variation_id) ?? store.state.products.get(i.product_id);
    return s !== undefined && !s.virtual;
  });
}
