/**
 * A route's declared arguments, checked where WordPress checks them: WP_REST_Server::respond_to_request() runs
 * WP_REST_Request::has_valid_params() (missing required arguments, then each one against its type) and
 * sanitize_params() before the permission callback and the route's callback. So a Store API cart or checkout
 * request with a bad argument is a 400 `rest_missing_callback_param` / `rest_invalid_param` before
 * AbstractCartRoute::get_response() loads the session or checks the nonce, and carries none of its headers.
 * serve_batch_request_v1() runs the same two checks over every sub-request before it runs any.
 */

import { type Specs, validateParams } from '../../rest/params.js';
import type { Ctx, Handler } from '../../rest/router.js';
import { checkAddressArgs } from './address-args.js';

const DECLARED = new WeakMap<Handler, Specs>();

/**
 * `handler` behind its arguments' check. The handler reads its arguments as before; the check only decides
 * whether it runs (its own reading agrees with the schema on every value the schema lets through).
 */
export function withArgs(specs: Specs, handler: Handler): Handler {
  const checked: Handler = (ctx: Ctx) => {
    checkParams(ctx.params, specs);
    return handler(ctx);
  };
  DECLARED.set(checked, specs);
  return checked;
}

/**
 * has_valid_params() and sanitize_params() over `params`: the types, then the address args' own callbacks
 * (address-args.ts), whose sanitized addresses replace the sent ones.
 */
function checkParams(params: Record<string, unknown>, specs: Specs): void {
  validateParams(params, specs);
  if ('billing_address' in specs) checkAddressArgs(params);
}

/** has_valid_params() for a batch sub-request about to reach `handler`: throws its RestError. */
export function checkArgs(handler: Handler, params: Record<string, unknown>): void {
  const specs = DECLARED.get(handler);
  if (specs) checkParams(params, specs);
}

/** CheckoutSchema's endpoint args (Checkout.php, CheckoutOrder.php): `billing_address` is required. */
export const CHECKOUT_ARGS: Specs = {
  billing_address: { type: 'object', required: true },
  shipping_address: { type: 'object' },
  payment_method: { type: 'string' },
  customer_note: { type: 'string' },
  payment_data: { type: 'array', items: { type: 'object' } },
};
