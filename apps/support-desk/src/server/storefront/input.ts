import * as z from 'zod/mini';
import type { StorefrontHelpRequest } from '../../shared/api.js';

/**
 * A `Cart-Token` as the storefront holds it. WooCommerce's is a JWT (StoreApi/Utilities/JsonWebToken.php:
 * base64url parts joined by dots); anything else that is a plain header value passes too, and the Store API
 * decides. Bounded, since the desk keeps it.
 */
const cartToken = z
  .string()
  .check(
    z.minLength(1, 'expected the Cart-Token'),
    z.maxLength(2048, 'a Cart-Token is at most 2048 characters'),
    z.regex(/^[\w.~+/=-]+$/, 'expected a Cart-Token (letters, digits and . _ ~ + / = -)'),
  );

/** The last checkout: what `GET /wc/store/v1/order/{id}` needs to show it to a guest (OrderAuthorizationTrait). */
const order = z.strictObject({
  id: z.number().check(z.int(), z.positive(), z.maximum(2 ** 53 - 1)),
  // wc_generate_order_key(): 'wc_' . 'order_' . a 13-character random string; filters may change it.
  key: z.string().check(z.minLength(1), z.maxLength(128), z.regex(/^[\w-]+$/, 'expected an order key')),
  billing_email: z.string().check(z.maxLength(254), z.email('expected the billing email')),
});

/** `POST /api/storefront/help`; a missing `order` is no order. */
export const helpRequestSchema: z.ZodMiniType<StorefrontHelpRequest, unknown> = z.pipe(
  z.strictObject({ cart_token: cartToken, order: z.optional(z.nullable(order)) }),
  z.transform((value) => ({ cart_token: value.cart_token, order: value.order ?? null })),
);

/** Six digits; the agent may type them with spaces or a dash ("123 456"). */
export const linkRequestSchema = z.strictObject({
  code: z.pipe(
    z.pipe(
      z.string().check(z.maxLength(32, 'a support code is six digits')),
      z.transform((code) => code.replace(/[\s-]/g, '')),
    ),
    z.string().check(z.regex(/^\d{6}$/, 'a support code is six digits')),
  ),
});
