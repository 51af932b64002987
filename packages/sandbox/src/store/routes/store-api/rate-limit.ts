/**
 * The Store API's optional rate limit: StoreApi/Authentication.php apply_rate_limiting() over
 * StoreApi/Utilities/RateLimits.php. Off by default (the `woocommerce_store_api_rate_limit_options` filter's
 * `enabled` is false); when on, requests are counted per client address (no proxy support) in windows of
 * `seconds`: each gets `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`; past the limit the answer
 * is HTTP 400 `rate_limit_exceeded` with `RateLimit-Retry-After` until the window resets.
 * WooCommerce's rate-limiting page says only POST requests are limited; its code (check_authentication() on
 * `rest_authentication_errors`, for every Store API request) counts every method. The code is followed here.
 */

import { createHash } from 'node:crypto';
import type { Ctx, Handler, Result } from '../../rest/router.js';

export interface StoreApiRateLimit {
  /** Requests per window. WooCommerce's default is 25. */
  limit: number;
  /** The window in seconds. WooCommerce's default is 10. */
  seconds: number;
}

interface Row {
  reset: number;
  remaining: number;
}

export class StoreApiRateLimiter {
  readonly #rows = new Map<string, Row>();

  constructor(readonly options: StoreApiRateLimit) {}

  /** RateLimits::is_exceeded_retry_after(): seconds until the window resets, once nothing remains. */
  #retryAfter(id: string, now: number): number | false {
    const row = this.#rows.get(id);
    // get_rate_limit_row() only reads a row whose expiry is still ahead.
    if (!row || row.reset <= now || row.remaining > 0) return false;
    return row.reset - now;
  }

  /** RateLimits::update_rate_limit(): a new window on the first request or once it has passed. */
  #update(id: string, now: number): Row {
    let row = this.#rows.get(id);
    if (!row || row.reset < now) {
      row = { reset: now + this.options.seconds, remaining: this.options.limit - 1 };
      this.#rows.set(id, row);
    } else row.remaining = Math.max(0, row.remaining - 1);
    return row;
  }

  wrap(handler: Handler): Handler {
    return async (ctx: Ctx): Promise<Result> => {
      const now = Math.floor(Date.now() / 1000);
      // get_rate_limiting_id(): md5 of REMOTE_ADDR for a guest.
      const id = `store_api_request_${createHash('md5')
        .update(ctx.remoteAddress ?? '')
        .digest('hex')}`;
      const limit = String(this.options.limit);
      const retry = this.#retryAfter(id, now);
      if (retry !== false) {
        return {
          status: 400,
          body: {
            code: 'rate_limit_exceeded',
            message: `Too many requests. Please wait ${retry} seconds before trying again.`,
            data: { status: 400 },
          },
          headers: {
            'RateLimit-Limit': limit,
            'RateLimit-Retry-After': String(retry),
            'RateLimit-Remaining': '0',
            'RateLimit-Reset': String(now + retry),
          },
        };
      }
      const row = this.#update(id, now);
      const result = await handler(ctx);
      result.headers = {
        ...(result.headers ?? {}),
        'RateLimit-Limit': limit,
        'RateLimit-Remaining': String(row.remaining),
        'RateLimit-Reset': String(row.reset),
      };
      return result;
    };
  }
}
