/**
 * What goes into a Store API cart: StoreApi/Utilities/CartController.php add_to_cart(), validate_add_to_cart(),
 * set_cart_item_quantity(), get_product_for_cart() and parse_variation_data(), with the quantity rules of
 * StoreApi/Utilities/QuantityLimits.php. Messages are WooCommerce's, `&quot;` and all (its format strings carry
 * the entity).
 */

import { createHash } from 'node:crypto';
import { effectiveStockStatus, productStockStatus } from '../catalog/stock.js';
import { getOption } from '../data/options.js';
import type { ProductRec, VariationRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { RestError } from '../runtime/errors.js';
import { escHtml } from '../runtime/formatting.js';
import type { Cart, CartItem } from './session.js';

function fail(code: string, message: string, status = 400): RestError {
  return new RestError(status, code, message);
}

/** WC_Cart::generate_cart_id(): md5 of the product id and, for a variation, `_variation_id`. */
export function itemKey(productId: number, variationId: number): string {
  const parts = variationId ? `${productId}_${variationId}` : String(productId);
  return createHash('md5').update(parts).digest('hex');
}

export interface Found {
  product: ProductRec;
  variation: VariationRec | null;
}

/** wc_get_product(): a variation id resolves to its parent and itself. */
export function resolveSellable(store: Store, id: number): Found | null {
  const v = store.state.variations.get(id);
  if (v) {
    const parent = store.state.products.get(v.parent_id);
    return parent ? { product: parent, variation: v } : null;
  }
  const p = store.state.products.get(id);
  return p ? { product: p, variation: null } : null;
}

/** WC_Product::is_purchasable() for a guest: published, and priced (a variation: its parent published too). */
function purchasable({ product, variation }: Found): boolean {
  if (product.status !== 'publish') return false;
  if (variation) return variation.status === 'publish' && variation.regular_price !== '';
  if (product.type === 'grouped' || product.type === 'external') return false;
  return product.type === 'variable' || product.regular_price !== '';
}

function holderOf({ product, variation }: Found): ProductRec | VariationRec | null {
  if (variation?.manage_stock === true) return variation;
  return product.manage_stock ? product : null;
}

/** The stock a managed holder without backorders limits to (get_remaining_stock()), else none. */
export function stockLimit(product: ProductRec, variation: VariationRec | null): number | null {
  const holder = holderOf({ product, variation });
  if (holder?.backorders !== 'no') return null;
  return holder.stock_quantity ?? 0;
}

/**
 * QuantityLimits::get_product_quantity_limit(): 9999, 1 when sold individually, else the remaining stock (a
 * zero or missing stock is filtered out, array_filter()), never below 1.
 */
export function maximumOf(found: Found): number {
  if (found.product.sold_individually) return 1;
  const stock = stockLimit(found.product, found.variation);
  return Math.max(stock ? Math.min(9999, stock) : 9999, 1);
}

/** QuantityLimits::validate_cart_item_quantity(). */
function validateQuantity(found: Found, quantity: number): void {
  const name = found.product.name;
  if (found.product.sold_individually) {
    throw fail('readonly_quantity', `The quantity of &quot;${name}&quot; cannot be changed`);
  }
  if (quantity < 1) {
    throw fail('invalid_quantity', `The minimum quantity of &quot;${name}&quot; allowed in the cart is 1`);
  }
  const max = maximumOf(found);
  if (quantity > max) {
    throw fail(
      'invalid_quantity',
      `The maximum quantity of &quot;${name}&quot; allowed in the cart is ${max}`,
    );
  }
}

/** validate_add_to_cart(): purchasable, a positive quantity, in stock, and enough of it with what the cart holds. */
function validateAdd(store: Store, cart: Cart, found: Found, quantity: number): void {
  const name = found.product.name;
  if (!purchasable(found)) {
    throw fail(
      'woocommerce_rest_product_not_purchasable',
      `&quot;${name}&quot; is not available for purchase.`,
    );
  }
  if (quantity <= 0) {
    throw fail(
      'woocommerce_rest_product_invalid_quantity',
      `You cannot add &quot;${escHtml(name)}&quot; with a quantity less than or equal to 0 to the cart.`,
    );
  }
  const status = found.variation
    ? effectiveStockStatus(store, found.variation)
    : productStockStatus(store, found.product);
  if (status === 'outofstock') {
    throw fail(
      'woocommerce_rest_product_out_of_stock',
      `You cannot add &quot;${name}&quot; to the cart because the product is out of stock.`,
    );
  }
  const holder = holderOf(found);
  if (holder && holder.backorders === 'no') {
    const remaining = holder.stock_quantity ?? 0;
    // get_product_quantity_in_cart(): every line whose stock this holder manages.
    const byVariation = holder === found.variation;
    const inCart = cart.items
      .filter((i) => (byVariation ? i.variation_id === holder.id : i.product_id === holder.id))
      .reduce((n, i) => n + i.quantity, 0);
    if (remaining < inCart + quantity) {
      throw fail(
        'woocommerce_rest_product_partially_out_of_stock',
        `You cannot add that amount of &quot;${name}&quot; to the cart because there is not enough stock (${remaining} remaining).`,
      );
    }
  }
}

/** wc_stock_amount() of a `quantity` the schema typed as a number; `null` when not sent. */
export function quantityArg(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  const n =
    typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))
      ? Number(value)
      : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) {
    throw new RestError(400, 'rest_invalid_param', 'Invalid parameter(s): quantity', {
      params: { quantity: 'quantity is not of type number.' },
    });
  }
  return Math.trunc(n);
}

/**
 * parse_variation_data() for a variable product: the variation whose attributes match the posted
 * `[{attribute, value}]` (an attribute the variation leaves open takes any value).
 */
function matchVariation(store: Store, product: ProductRec, posted: unknown): VariationRec {
  const wanted = new Map<string, string>();
  for (const pair of Array.isArray(posted) ? posted : []) {
    if (typeof pair !== 'object' || pair === null) continue;
    const { attribute, value } = pair as Record<string, unknown>;
    if (typeof attribute === 'string' && typeof value === 'string') {
      wanted.set(attribute.toLowerCase().replace(/^(attribute_)?(pa_)?/, ''), value.toLowerCase());
    }
  }
  const match = product.variation_ids
    .map((id) => store.state.variations.get(id))
    .find(
      (v) =>
        v !== undefined &&
        v.attributes.length > 0 &&
        v.attributes.every(
          (a) => a.option === '' || wanted.get(a.name.toLowerCase()) === a.option.toLowerCase(),
        ),
    );
  if (!match) throw fail('woocommerce_rest_variation_id_from_variation_data', 'No matching variation found.');
  return match;
}

/**
 * add_to_cart(): `id` is absint'ed; an unknown or trashed product fails; a sold-individually product is added
 * once; adding what the cart holds raises that line (validated as a whole), a new line is clamped to the limits.
 */
export function addItem(store: Store, cart: Cart, p: Record<string, unknown>): CartItem {
  if (p.key !== undefined && p.key !== null && p.key !== '' && p.key !== 0 && p.key !== false) {
    throw fail('woocommerce_rest_cart_item_exists', 'Cannot create an existing cart item.');
  }
  const raw = p.id ?? 0;
  if (typeof raw !== 'number' && !(typeof raw === 'string' && /^-?\d+$/.test(raw.trim()))) {
    throw new RestError(400, 'rest_invalid_param', 'Invalid parameter(s): id', {
      params: { id: 'id is not of type integer.' },
    });
  }
  const id = Math.abs(Math.trunc(Number(raw)));
  let found = Number.isSafeInteger(id) ? resolveSellable(store, id) : null;
  if (!found || found.product.status === 'trash') {
    throw fail(
      'woocommerce_rest_cart_invalid_product',
      `Product with ID &quot;${id}&quot; was not found and cannot be added to the cart.`,
    );
  }
  if (!found.variation && found.product.type === 'variable') {
    found = { product: found.product, variation: matchVariation(store, found.product, p.variation) };
  }
  let quantity = quantityArg(p.quantity) ?? 1;
  if (found.product.sold_individually) quantity = 1;
  validateAdd(store, cart, found, quantity);
  const key = itemKey(found.product.id, found.variation?.id ?? 0);
  const existing = cart.items.find((i) => i.key === key);
  if (existing) {
    validateQuantity(found, existing.quantity + quantity);
    existing.quantity += quantity;
    return existing;
  }
  const item = {
    key,
    product_id: found.product.id,
    variation_id: found.variation?.id ?? 0,
    quantity: Math.max(Math.min(quantity, maximumOf(found)), 1),
  };
  cart.items.push(item);
  return item;
}

/** get_cart_item() by key, or the route's `woocommerce_rest_cart_invalid_key` (409, with the cart). */
export function findItem(cart: Cart, key: unknown, message = 'Cart item does not exist.'): CartItem {
  const item = typeof key === 'string' ? cart.items.find((i) => i.key === key) : undefined;
  if (!item) throw fail('woocommerce_rest_cart_invalid_key', message, 409);
  return item;
}

/** set_cart_item_quantity(): the line must exist and the quantity pass the limits. */
export function updateItem(store: Store, cart: Cart, key: unknown, quantity: number | null): CartItem | null {
  if (quantity === null)
    return typeof key === 'string' ? (cart.items.find((i) => i.key === key) ?? null) : null;
  const item = findItem(cart, key);
  const found = resolveSellable(store, item.variation_id || item.product_id);
  if (!found) throw fail('woocommerce_rest_cart_invalid_product', 'Cart item is invalid.', 404);
  validateQuantity(found, quantity);
  item.quantity = quantity;
  return item;
}

export function removeItem(cart: Cart, key: unknown, message?: string): void {
  const item = findItem(cart, key, message);
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

/**
 * WC_Cart::show_shipping(), which CartSchema reads as `has_calculated_shipping`: the cart ships, and either
 * costs do not wait for an address (`woocommerce_shipping_cost_requires_address`, off by default) or one was given.
 */
export function showShipping(store: Store, cart: Cart): boolean {
  if (!needsShipping(store, cart)) return false;
  return (
    getOption(store, 'woocommerce_shipping_cost_requires_address', 'no') !== 'yes' || cart.calculated_shipping
  );
}
