import * as z from 'zod/mini';
import { storeAddressInputSchema, storeAddressSchema } from './cart.js';

/** StoreApi/Schemas/V1/CheckoutSchema.php: the order the checkout made and the payment's outcome. */
const checkoutShape = z.looseObject({
  order_id: z.number(),
  status: z.string(),
  order_key: z.string(),
  order_number: z.optional(z.string()),
  customer_note: z.optional(z.string()),
  customer_id: z.optional(z.number()),
  billing_address: storeAddressSchema,
  shipping_address: storeAddressSchema,
  payment_method: z.string(),
  payment_result: z.nullable(
    z.looseObject({
      payment_status: z.string(),
      payment_details: z.array(z.unknown()),
      redirect_url: z.string(),
    }),
  ),
  extensions: z.optional(z.record(z.string(), z.unknown())),
});
export interface CheckoutResult extends z.infer<typeof checkoutShape> {}
export const checkoutResultSchema: z.ZodMiniType<CheckoutResult> = checkoutShape;

/** `POST checkout`: `billing_address` (with a valid email) is required; shipping defaults to it. */
const placeShape = z.strictObject({
  billing_address: storeAddressInputSchema,
  shipping_address: z.optional(storeAddressInputSchema),
  payment_method: z.optional(z.string()),
  payment_data: z.optional(
    z.array(z.strictObject({ key: z.string(), value: z.union([z.string(), z.boolean()]) })),
  ),
  customer_note: z.optional(z.string()),
  create_account: z.optional(z.boolean()),
  /** The shop's additional checkout fields (`namespace/field`): text and selects are strings, checkboxes booleans. */
  additional_fields: z.optional(z.record(z.string(), z.union([z.string(), z.boolean()]))),
  extensions: z.optional(z.record(z.string(), z.unknown())),
});
export interface PlaceOrderInput extends z.input<typeof placeShape> {}
export const placeOrderInputSchema: z.ZodMiniType<PlaceOrderInput, PlaceOrderInput> = placeShape;
