import {
  type APIErrorInit,
  ConflictError,
  type ErrorDetails,
  type PreparedRequest,
  RateLimitError,
} from '@x/core';
import { type Cart, cartSchema } from './schemas/cart.js';
import { plainText } from './text.js';

/**
 * A 409 from a cart route (an item out of stock, a coupon that is not applied): the Store API answers with
 * the cart as it now is in `data.cart` (AbstractCartRoute::get_route_error_response()), so a storefront can
 * redraw it without another request. `cart` is undefined when the body held no valid cart.
 */
export class CartConflictError extends ConflictError {
  static override readonly brand: string = 'CartConflictError';
  readonly cart: Cart | undefined;

  constructor(init: APIErrorInit) {
    super(init);
    const data = (init.body as { data?: { cart?: unknown } } | null)?.data;
    const parsed = data && typeof data === 'object' ? cartSchema.safeParse(data.cart) : undefined;
    this.cart = parsed?.success ? parsed.data : undefined;
  }
}

/** The route, as the message names it: the path, or `?rest_route=` for plain permalinks. */
function where(request: PreparedRequest): string {
  const route = request.url.searchParams.get('rest_route');
  return `${request.method} ${request.url.origin}${request.url.pathname}${route ? `?rest_route=${route}` : ''}`;
}

/**
 * The Store API's error body `{ code, message, data: { status, params? } }` (WP_Error through
 * rest_convert_error_to_response()) read for core's error tree. Its optional rate limit answers
 * HTTP 400 `rate_limit_exceeded` (StoreApi/Authentication.php apply_rate_limiting()): that is a
 * `RateLimitError`, whose `retryAfterMs` core reads from `RateLimit-Retry-After`. A 409 keeps the cart.
 */
export function storeApiErrorDetails(
  body: unknown,
  response: Response,
  request: PreparedRequest,
): ErrorDetails {
  const sent = `(${where(request)})`;
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return { message: response.statusText || undefined, hint: sent };
  const { code, message, data } = body as { code?: unknown; message?: unknown; data?: unknown };
  const params = data && typeof data === 'object' ? (data as { params?: unknown }).params : undefined;
  const detail =
    params && typeof params === 'object'
      ? Object.entries(params)
          .map(([name, text]) => `${name}: ${plainText(String(text))}`)
          .join('; ')
      : '';
  return {
    code: typeof code === 'string' ? code : undefined,
    message: typeof message === 'string' ? plainText(message) : undefined,
    hint: detail ? `${detail} ${sent}` : sent,
    errorClass:
      code === 'rate_limit_exceeded'
        ? RateLimitError
        : response.status === 409
          ? CartConflictError
          : undefined,
  };
}
