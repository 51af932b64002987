import { APIError, ConnectionError, NotFoundError } from '@x/store';
import { MemoryCartTokenStore, StorefrontClient } from '@x/store/storefront';
import type { StorefrontHelpRequest, StorefrontOrder, StorefrontSnapshot } from '../../shared/api.js';
import type { DeskContext } from '../context.js';
import { HttpError } from '../errors.js';
import { readOrderRest } from './order-rest.js';
import { type CartLike, cartSnapshot, orderSnapshot } from './snapshot.js';

/** Longest error text a snapshot keeps. */
const MAX_MESSAGE = 300;
/**
 * How long one request to the store may take, and one read with its retry: an agent waits on
 * the phone, and the code is taken while the read lasts (a colleague typing it is told it was used). The
 * client's own default is a minute per attempt.
 */
const ATTEMPT_TIMEOUT_MS = 10_000;
const TOTAL_TIMEOUT_MS = 25_000;
/**
 * Largest answer read from the store: a cart or order is a few kilobytes (the snapshot keeps 50 lines), and
 * the client's own bound is 100 MiB, which a few links at once would hold in memory together.
 */
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

/**
 * The customer id a WooCommerce cart token carries (StoreApi/Utilities/JsonWebToken.php: a JWT whose payload
 * has `user_id`; CartTokenUtils signs the session's customer id into it), or null for one that is no JWT.
 */
export function tokenSubject(token: string): string | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { user_id?: unknown };
    return claims.user_id === undefined || claims.user_id === null ? null : String(claims.user_id);
  } catch {
    return null;
  }
}

/** An error as the page and the logs may see it: never the token, the order key or the email. */
export function safeMessage(error: unknown, secrets: readonly string[]): string {
  let text = error instanceof Error ? error.message : String(error);
  for (const secret of secrets) if (secret) text = text.split(secret).join('[redacted]');
  return [...text].slice(0, MAX_MESSAGE).join('');
}

/**
 * Reads what a help request points at, each read with a client of its own (one per lookup, holding only
 * this customer's token, so no two customers' carts can mix): the current cart and, when given, the order.
 * Resolves the snapshot and the newest token for the same cart (each response renews it), or throws a 502
 * without either secret when the store cannot be read at all.
 */
export async function readStorefront(
  desk: Pick<DeskContext, 'config' | 'services' | 'logger'>,
  request: StorefrontHelpRequest,
): Promise<{ snapshot: StorefrontSnapshot; cartToken: string }> {
  // Each as it is and as a URL carries it (an error may quote the request's URL).
  const secrets = [request.cart_token, request.order?.key ?? '', request.order?.billing_email ?? ''].flatMap(
    (secret) => [secret, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)],
  );
  const tokens = new MemoryCartTokenStore();
  tokens.set(request.cart_token);
  const { logger } = desk;
  const client = new StorefrontClient({
    url: desk.config.store.url,
    cartTokenStore: tokens,
    maxRetries: 1,
    timeout: ATTEMPT_TIMEOUT_MS,
    totalTimeout: TOTAL_TIMEOUT_MS,
    maxResponseBytes: MAX_ANSWER_BYTES,
    // The desk's log, which the client writes with the token scrubbed out.
    logger: {
      debug: () => {},
      info: (...args) => logger.info(...args),
      warn: (...args) => logger.warn(...args),
      error: (...args) => logger.error(...args),
    },
  });
  const snapshot: StorefrontSnapshot = {
    readAt: new Date().toISOString(),
    cart: null,
    cartError: null,
    order: null,
    orderError: null,
  };
  let cartToken = request.cart_token;
  try {
    const cart: CartLike = await client.cart.get();
    const renewed = tokens.get();
    // An expired or forged token is not refused: the Store API answers with a new, empty cart and its
    // token (load_cart_session()), which names another customer id. That cart is not the customer's.
    if (renewed && tokenSubject(renewed) !== tokenSubject(request.cart_token)) {
      snapshot.cartError =
        'the customer’s cart has expired (its session ended): ask them to add the items again and read out a new code';
    } else {
      snapshot.cart = cartSnapshot(cart);
      if (renewed) cartToken = renewed;
    }
  } catch (error) {
    throw unreadable(error, secrets);
  }
  if (request.order) {
    try {
      snapshot.order = await readOrder(client, request.order).catch((error: unknown) => {
        // A WooCommerce before the Store API's `order/{id}` (9.x) has no such route: the REST API has the order.
        if (!(error instanceof NotFoundError && error.code === 'rest_no_route')) throw error;
        return readOrderRest(desk.services.store, request.order!, snapshot.cart?.currency ?? null);
      });
    } catch (error) {
      if (error instanceof ConnectionError) throw unreadable(error, secrets);
      snapshot.orderError =
        error instanceof APIError && [401, 403, 404].includes(error.status)
          ? `order #${request.order.id} was not found with the key and email the storefront gave`
          : safeMessage(error, secrets);
    }
  }
  return { snapshot, cartToken };
}

/**
 * `GET order/{id}?key=&billing_email=` (StoreApi/Routes/V1/Order.php): the order as its guest customer sees
 * it, authorised by its key and billing email (OrderAuthorizationTrait), never by the desk's admin keys.
 */
async function readOrder(
  client: StorefrontClient,
  order: NonNullable<StorefrontHelpRequest['order']>,
): Promise<StorefrontOrder> {
  const found = await client.order.get(order.id, { key: order.key, billing_email: order.billing_email });
  return orderSnapshot(found, 'store-api');
}

function unreadable(error: unknown, secrets: readonly string[]): HttpError {
  return new HttpError(
    502,
    `the store’s cart could not be read: ${safeMessage(error, secrets)}`,
    error instanceof APIError && error.code ? String(error.code) : 'store_unreachable',
  );
}
