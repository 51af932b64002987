import * as z from 'zod/mini';
import { cartCouponSchema, orderItemShape, storeAddressInputSchema, storeAddressSchema } from './cart.js';
import { amount, priceGroup } from './money.js';

const orderTotalsShape = priceGroup({
  subtotal: amount,
  total_discount: amount,
  total_shipping: amount,
  total_fees: amount,
  total_tax: amount,
  total_refund: amount,
  total_price: amount,
  total_items: amount,
  total_items_tax: amount,
  total_fees_tax: amount,
  total_discount_tax: amount,
  total_shipping_tax: amount,
  tax_lines: z.optional(z.array(z.looseObject({ name: z.string(), price: amount, rate: z.string() }))),
});
export interface OrderTotals extends z.infer<typeof orderTotalsShape> {}

export interface StoreOrderItem extends z.infer<typeof orderItemShape> {}

/** StoreApi/Schemas/V1/OrderSchema.php: an order as its guest sees it with the order key. */
const storeOrderShape = z.looseObject({
  id: z.number(),
  status: z.string(),
  items: z.array(orderItemShape as z.ZodMiniType<StoreOrderItem>),
  coupons: z.array(cartCouponSchema),
  fees: z.optional(z.array(z.unknown())),
  totals: orderTotalsShape as z.ZodMiniType<OrderTotals>,
  shipping_address: storeAddressSchema,
  billing_address: storeAddressSchema,
  needs_payment: z.boolean(),
  needs_shipping: z.boolean(),
  payment_requirements: z.optional(z.array(z.string())),
  errors: z.optional(z.array(z.unknown())),
});
export interface StoreOrder extends z.infer<typeof storeOrderShape> {}
export const storeOrderSchema: z.ZodMiniType<StoreOrder> = storeOrderShape;

/** OrderAuthorizationTrait: a guest proves the order is theirs with its key and billing email. */
const orderAuthShape = z.strictObject({
  key: z.string().check(z.minLength(1)),
  billing_email: z.string().check(z.email()),
});
export interface OrderAuth extends z.input<typeof orderAuthShape> {}
export const orderAuthSchema: z.ZodMiniType<OrderAuth, OrderAuth> = orderAuthShape;

/** `POST checkout/{id}` (CheckoutOrderSchema): the order's key and billing email, and the payment. */
const payOrderShape = z.strictObject({
  key: z.string().check(z.minLength(1)),
  billing_email: z.string().check(z.email()),
  billing_address: storeAddressInputSchema,
  shipping_address: z.optional(storeAddressInputSchema),
  payment_method: z.optional(z.string()),
  payment_data: z.optional(
    z.array(z.strictObject({ key: z.string(), value: z.union([z.string(), z.boolean()]) })),
  ),
  customer_note: z.optional(z.string()),
});
export interface PayOrderInput extends z.input<typeof payOrderShape> {}
export const payOrderInputSchema: z.ZodMiniType<PayOrderInput, PayOrderInput> = payOrderShape;
