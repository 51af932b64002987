import * as z from 'zod/mini';
import { type Address, address } from '../../schemas/common.js';
import { amount, maybeAmount, priceGroup } from './money.js';
import { storeImageSchema } from './products.js';

/**
 * StoreApi/Schemas/V1/CartShippingAddressSchema.php; the billing one adds `email` (CartBillingAddressSchema).
 * The fields are those of REST v3's addresses, so the admin schema serves (it imports nothing but zod).
 */
export interface StoreAddress extends Address {}
export const storeAddressSchema: z.ZodMiniType<StoreAddress> = address;

const itemPricesShape = priceGroup({
  price: amount,
  regular_price: amount,
  sale_price: amount,
  price_range: z.optional(z.nullable(z.looseObject({ min_amount: amount, max_amount: amount }))),
});
export interface CartItemPrices extends z.infer<typeof itemPricesShape> {}

const itemTotalsShape = priceGroup({
  line_subtotal: amount,
  line_subtotal_tax: amount,
  line_total: amount,
  line_total_tax: amount,
});
export interface CartItemTotals extends z.infer<typeof itemTotalsShape> {}

/** StoreApi/Schemas/V1/CartItemSchema.php: one line; `key` names it in the item routes. */
const cartItemShape = z.looseObject({
  key: z.string(),
  id: z.number(),
  type: z.optional(z.string()),
  quantity: z.number(),
  quantity_limits: z.optional(
    z.looseObject({
      minimum: z.number(),
      maximum: z.number(),
      multiple_of: z.number(),
      editable: z.boolean(),
    }),
  ),
  name: z.string(),
  short_description: z.optional(z.string()),
  description: z.optional(z.string()),
  sku: z.optional(z.string()),
  low_stock_remaining: z.optional(z.nullable(z.number())),
  backorders_allowed: z.optional(z.boolean()),
  sold_individually: z.optional(z.boolean()),
  permalink: z.optional(z.string()),
  images: z.array(storeImageSchema),
  variation: z.array(z.looseObject({ attribute: z.string(), value: z.string() })),
  item_data: z.optional(z.array(z.unknown())),
  prices: itemPricesShape as z.ZodMiniType<CartItemPrices>,
  totals: itemTotalsShape as z.ZodMiniType<CartItemTotals>,
  catalog_visibility: z.optional(z.string()),
  extensions: z.optional(z.record(z.string(), z.unknown())),
});
export interface CartItem extends z.infer<typeof cartItemShape> {}
export const cartItemSchema: z.ZodMiniType<CartItem> = cartItemShape;
/** An order's line (OrderItemSchema): a cart item fixed in quantity, keyed by the order key. */
export const orderItemShape = z.extend(cartItemShape, {
  prices: z.optional(itemPricesShape as z.ZodMiniType<CartItemPrices>),
});

/** StoreApi/Schemas/V1/CartCouponSchema.php. */
const couponShape = z.looseObject({
  code: z.string(),
  discount_type: z.string(),
  totals: priceGroup({ total_discount: amount, total_discount_tax: amount }),
});
export interface CartCoupon extends z.infer<typeof couponShape> {}
export const cartCouponSchema: z.ZodMiniType<CartCoupon> = couponShape;

/** StoreApi/Schemas/V1/CartShippingRateSchema.php: one package and the rates offered for it. */
const rateShape = priceGroup({
  rate_id: z.string(),
  name: z.string(),
  description: z.optional(z.string()),
  delivery_time: z.optional(z.string()),
  price: amount,
  taxes: amount,
  instance_id: z.optional(z.number()),
  method_id: z.string(),
  meta_data: z.optional(z.array(z.looseObject({ key: z.string(), value: z.unknown() }))),
  selected: z.boolean(),
});
export interface ShippingRate extends z.infer<typeof rateShape> {}
const packageShape = z.looseObject({
  package_id: z.union([z.number(), z.string()]),
  name: z.string(),
  destination: z.looseObject({ country: z.string() }),
  items: z.array(z.looseObject({ key: z.string(), name: z.string(), quantity: z.number() })),
  shipping_rates: z.array(rateShape as z.ZodMiniType<ShippingRate>),
});
export interface ShippingPackage extends z.infer<typeof packageShape> {}

const cartTotalsShape = priceGroup({
  total_items: amount,
  total_items_tax: amount,
  total_fees: amount,
  total_fees_tax: amount,
  total_discount: amount,
  total_discount_tax: amount,
  total_shipping: maybeAmount,
  total_shipping_tax: maybeAmount,
  total_price: amount,
  total_tax: amount,
  tax_lines: z.optional(z.array(z.looseObject({ name: z.string(), price: amount, rate: z.string() }))),
});
export interface CartTotals extends z.infer<typeof cartTotalsShape> {}

/** StoreApi/Schemas/V1/CartSchema.php: what every cart route answers. */
const cartShape = z.looseObject({
  items: z.array(cartItemSchema),
  coupons: z.array(couponShape as z.ZodMiniType<CartCoupon>),
  fees: z.optional(z.array(z.unknown())),
  totals: cartTotalsShape as z.ZodMiniType<CartTotals>,
  shipping_address: storeAddressSchema,
  billing_address: storeAddressSchema,
  needs_payment: z.boolean(),
  needs_shipping: z.boolean(),
  payment_requirements: z.optional(z.array(z.string())),
  has_calculated_shipping: z.boolean(),
  shipping_rates: z.array(packageShape as z.ZodMiniType<ShippingPackage>),
  items_count: z.number(),
  items_weight: z.optional(z.number()),
  cross_sells: z.optional(z.array(z.unknown())),
  errors: z.optional(z.array(z.unknown())),
  payment_methods: z.optional(z.array(z.string())),
  extensions: z.optional(z.record(z.string(), z.unknown())),
});
export interface Cart extends z.infer<typeof cartShape> {}
export const cartSchema: z.ZodMiniType<Cart> = cartShape;

const addressInputShape = z.partial(
  z.strictObject({
    first_name: z.string(),
    last_name: z.string(),
    company: z.string(),
    address_1: z.string(),
    address_2: z.string(),
    city: z.string(),
    state: z.string(),
    postcode: z.string(),
    country: z.string(),
    // Empty is allowed: BillingAddressSchema.php validate_callback() checks only a non-empty email.
    email: z.union([z.literal(''), z.string().check(z.email())]),
    phone: z.string(),
  }),
);
export interface StoreAddressInput extends z.input<typeof addressInputShape> {}
export const storeAddressInputSchema: z.ZodMiniType<StoreAddressInput, StoreAddressInput> = addressInputShape;

const quantity = z.number().check(z.int(), z.positive());
/** `cart/add-item` and `POST cart/items` (CartAddItem): a product or variation id and how many. */
const addItemShape = z.strictObject({
  id: z.number().check(z.int(), z.positive()),
  quantity: z.optional(quantity),
  /** For a variable product given by its parent id: the chosen attributes. */
  variation: z.optional(z.array(z.strictObject({ attribute: z.string(), value: z.string() }))),
});
export interface AddItemInput extends z.input<typeof addItemShape> {}
export const addItemInputSchema: z.ZodMiniType<AddItemInput, AddItemInput> = addItemShape;

const customerShape = z.strictObject({
  billing_address: z.optional(addressInputShape),
  shipping_address: z.optional(addressInputShape),
});
export interface UpdateCustomerInput extends z.input<typeof customerShape> {}
export const updateCustomerInputSchema: z.ZodMiniType<UpdateCustomerInput, UpdateCustomerInput> =
  customerShape;

const selectRateShape = z.strictObject({
  rate_id: z.string().check(z.minLength(1)),
  package_id: z.optional(z.union([z.number().check(z.int(), z.nonnegative()), z.string()])),
});
export interface SelectShippingRateInput extends z.input<typeof selectRateShape> {}
export const selectShippingRateInputSchema: z.ZodMiniType<SelectShippingRateInput, SelectShippingRateInput> =
  selectRateShape;

/** A cart item key: WC_Cart::generate_cart_id()'s md5, 32 characters (the routes' `[\w-]{32}`). */
export const itemKeySchema = z
  .string()
  .check(z.regex(/^[\w-]{32}$/, 'expected a cart item key (32 characters)'));
export const quantitySchema = quantity;
export const couponCodeSchema = z.string().check(z.minLength(1));
