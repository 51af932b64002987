import {
  type APIPromise,
  BaseClient,
  type ClientOptions,
  type FetchLike,
  type Logger,
  optionIssues,
  redactUrl,
  type ServiceAdapter,
  ValidationError,
  type ValidationIssue,
} from '@x/core';
import { name as packageName, version as packageVersion } from '../../package.json';
import { type BatchOptions, sendBatch } from './batch.js';
import { Caller, retrySettings, type StorefrontContext } from './call.js';
import { StorefrontCart } from './cart.js';
import { StorefrontCheckout } from './checkout.js';
import { storeApiErrorDetails } from './errors.js';
import { StorefrontOrder } from './order.js';
import { StorefrontProducts } from './products.js';
import type { BatchRequest, BatchResponse } from './schemas/batch.js';
import { CartSession, type SessionMode } from './session.js';
import { type CartTokenStore, MemoryCartTokenStore } from './token-store.js';

export interface StorefrontClientOptions extends Omit<ClientOptions, 'baseURL' | 'auth'> {
  /** The store's home URL, e.g. `https://shop.example.com` (no `/wp-json`). */
  url: string;
  /** Where the `Cart-Token` is kept. Default: in memory, for the life of the client. */
  cartTokenStore?: CartTokenStore | undefined;
  /**
   * `cart-token` (default) keeps the cart by its `Cart-Token`; `cookie` leaves it to WooCommerce's session
   * cookie (a page on the shop's own site), sending the `Nonce` updating requests need.
   */
  session?: SessionMode | undefined;
  /** `fetch`'s `credentials` (browsers): `'include'` sends the shop's cookies cross-origin. */
  credentials?: RequestCredentials | undefined;
  /** The REST prefix of `pretty` URLs. Default `wp-json`. */
  apiPrefix?: string | undefined;
  /** `plain` for shops without pretty permalinks: requests go to `/?rest_route=/wc/store/v1/...`. */
  permalinks?: 'pretty' | 'plain' | undefined;
  /** Send input fields this SDK does not know instead of refusing them (see the admin client). */
  allowUnknownFields?: boolean | undefined;
}

const NAMESPACE = '/wc/store/v1';
/** Where the options a clone is built from carry the session (see the constructor). */
const SESSION = Symbol('storefront session');
interface Inherited {
  session: CartSession;
  /** The parent's shop (checkOptions()'s URL), whose cart the session holds. */
  home: string;
  /** The store the parent's user gave, if any. */
  given: CartTokenStore | undefined;
}

/**
 * The WooCommerce Store API (`/wp-json/wc/store/v1`): products, the cart and checkout, as a shopper's page
 * or a headless storefront uses them. It takes no keys (the Store API serves anyone), so it is safe in a
 * browser, and it is its own entry, `@x/store/storefront`, without the admin client's key and OAuth code.
 */
export class StorefrontClient extends BaseClient<StorefrontClientOptions> {
  readonly products: StorefrontProducts;
  readonly cart: StorefrontCart;
  readonly checkout: StorefrontCheckout;
  /** `order/{id}`: a guest's order, by its key and billing email. */
  readonly order: StorefrontOrder;
  private readonly context: StorefrontContext;

  constructor(options: StorefrontClientOptions) {
    const home = checkOptions(options);
    const mode = options.session ?? 'cart-token';
    // A withOptions() clone keeps its parent's session (nonce, first-token wait) unless it changes it. The
    // token is the parent shop's cart: a clone for another shop (another url) starts its own, or it would
    // send that shop the parent's Cart-Token and Nonce.
    const parent = (options as { [SESSION]?: Inherited })[SESSION];
    const sameShop = parent?.home === home.href;
    if (parent && !sameShop && options.cartTokenStore && options.cartTokenStore === parent.given)
      throw new ValidationError('StorefrontClient options', [
        {
          path: 'cartTokenStore',
          message: `withOptions() changed the url from ${parent.home} to ${home.href} but kept the cartTokenStore, whose Cart-Token belongs to the first shop; pass the other shop its own store`,
        },
      ]);
    const store = options.cartTokenStore ?? (sameShop ? parent.session.store : new MemoryCartTokenStore());
    const session =
      sameShop && parent.session.mode === mode && parent.session.store === store
        ? parent.session
        : new CartSession(store, mode, home.origin, positive(options.timeout) ?? 60_000);
    const {
      url: _url,
      cartTokenStore: _store,
      session: _mode,
      credentials,
      apiPrefix,
      permalinks,
      allowUnknownFields,
      ...core
    } = options;
    super(
      {
        // WooCommerce's own Store API limit when a shop turns it on (RateLimits.php: 25 per 10 s).
        rateLimit: { limit: 25, interval: '10s' },
        ...core,
        baseURL: home.toString(),
        auth: session.strategy(),
        hooks: isObject(core.hooks) || core.hooks === undefined ? session.hooks(core.hooks) : core.hooks,
        logger: isLogger(core.logger ?? console)
          ? session.secrets.logger(core.logger ?? console)
          : core.logger,
        fetch: credentials ? withCredentials(core.fetch, credentials) : core.fetch,
      },
      storefrontAdapter(permalinks ?? 'pretty', apiPrefix ?? 'wp-json'),
      // Clones made with withOptions() for the same shop share the session, so they keep the same cart.
      {
        ...options,
        [SESSION]: { session, home: home.href, given: options.cartTokenStore },
      } as StorefrontClientOptions,
    );
    const caller = new Caller(this, session, retrySettings(core), core.totalTimeout);
    const context = { caller, allowUnknownFields: allowUnknownFields ?? false };
    this.context = context;
    this.products = new StorefrontProducts(context);
    this.cart = new StorefrontCart(context);
    this.checkout = new StorefrontCheckout(context);
    this.order = new StorefrontOrder(context);
  }

  /** `POST batch`: up to 25 cart and checkout requests in one; see `sendBatch` in batch.ts. */
  batch(requests: BatchRequest[], options?: BatchOptions): APIPromise<BatchResponse> {
    return sendBatch(this.context, requests, options);
  }
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && value > 0 && Number.isFinite(value) ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isLogger(value: unknown): value is Logger {
  return (
    isObject(value) && ['debug', 'info', 'warn', 'error'].every((level) => typeof value[level] === 'function')
  );
}

/** `credentials` is a fetch option, so it rides on the fetch the client uses. */
function withCredentials(fetch: FetchLike | undefined, credentials: RequestCredentials): FetchLike {
  return (input, init) => (fetch ?? globalThis.fetch)(input, { ...init, credentials });
}

function checkOptions(options: StorefrontClientOptions): URL {
  if (typeof options !== 'object' || options === null)
    throw new ValidationError('StorefrontClient options', [
      { path: '', message: 'expected an options object with url' },
    ]);
  const issues: ValidationIssue[] = optionIssues(options, {
    url: 'string',
    cartTokenStore: 'object',
    session: { enum: ['cart-token', 'cookie'] },
    credentials: { enum: ['include', 'same-origin', 'omit'] },
    apiPrefix: 'string',
    permalinks: { enum: ['pretty', 'plain'] },
    allowUnknownFields: 'boolean',
  });
  const store = options.cartTokenStore as unknown;
  if (isObject(store) && (typeof store.get !== 'function' || typeof store.set !== 'function'))
    issues.push({ path: 'cartTokenStore', message: 'expected an object with get() and set(token) methods' });
  let home: URL | undefined;
  if (options.url === undefined) issues.push({ path: 'url', message: 'is required' });
  else if (typeof options.url === 'string') {
    try {
      home = new URL(options.url);
      if (home.protocol !== 'https:' && home.protocol !== 'http:')
        issues.push({ path: 'url', message: 'must be an http(s) URL' });
      if (home.username || home.password)
        issues.push({ path: 'url', message: 'must not contain credentials' });
      const prefix = options.apiPrefix ?? 'wp-json';
      if (typeof prefix === 'string' && prefix && home.pathname.split('/').includes(prefix))
        issues.push({
          path: 'url',
          message: `points at the REST API (${home.origin}${home.pathname}): pass the store's home URL, without /${prefix}; the client adds /${prefix}${NAMESPACE} itself`,
        });
    } catch {
      issues.push({
        path: 'url',
        message: `is not a URL: ${JSON.stringify(redactUrl(options.url)).slice(0, 80)}`,
      });
    }
  }
  // Options the admin client takes and this one would drop: keys here would sit in a page's bundle for nothing.
  for (const name of ['consumerKey', 'consumerSecret', 'auth', 'baseURL'])
    if ((options as unknown as Record<string, unknown>)[name] !== undefined)
      issues.push({
        path: name,
        message:
          name === 'baseURL'
            ? 'is not an option of the Store API client: pass the home URL as url'
            : 'the Store API takes no keys (it serves shoppers); keep consumer keys out of storefront code',
      });
  if (issues.length > 0 || !home) throw new ValidationError('StorefrontClient options', issues);
  home.hash = '';
  home.search = '';
  home.pathname = home.pathname.replace(/\/+$/, '');
  return home;
}

function storefrontAdapter(permalinks: 'pretty' | 'plain', apiPrefix: string): ServiceAdapter {
  return {
    packageName,
    packageVersion,
    defaultRateLimit: { limit: 25, interval: '10s' },
    resolveUrl(baseURL, path) {
      if (permalinks === 'pretty') return new URL(`${baseURL}/${apiPrefix}${NAMESPACE}${path}`);
      const url = new URL(`${baseURL}/`);
      url.searchParams.set('rest_route', `${NAMESPACE}${path}`);
      return url;
    },
    parseError: storeApiErrorDetails,
  };
}
