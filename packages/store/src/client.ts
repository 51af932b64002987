import {
  type AuthStrategy,
  BaseClient,
  basicAuth,
  type ClientOptions,
  type ErrorDetails,
  type PreparedRequest,
  queryAuth,
  Secret,
  type ServiceAdapter,
  signerAuth,
  ValidationError,
  type ValidationIssue,
} from '@x/core';
import { name as packageName, version as packageVersion } from '../package.json';
import { type OAuthSignatureMethod, signOAuth } from './oauth.js';
import { Customers } from './resources/customers.js';
import { Orders } from './resources/orders.js';
import { Products } from './resources/products.js';
import { Webhooks } from './resources/webhooks.js';

export interface StoreClientOptions extends Omit<ClientOptions, 'baseURL' | 'auth'> {
  /** The store's home URL, e.g. `https://shop.example.com` (no `/wp-json`). */
  url: string;
  consumerKey: string;
  consumerSecret: string;
  /**
   * Over HTTPS, send the keys as `consumer_key`/`consumer_secret` query parameters instead of Basic auth
   * (for hosts that strip the Authorization header). Refused over plain HTTP.
   */
  queryStringAuth?: boolean;
  /** `plain` for stores without pretty permalinks: requests go to `/?rest_route=/wc/v3/...`. */
  permalinks?: 'pretty' | 'plain';
  /** The REST prefix of `pretty` URLs. Default `wp-json`. */
  apiPrefix?: string;
  /** OAuth 1.0a signature method used over plain HTTP. Default HMAC-SHA256. */
  oauthSignatureMethod?: OAuthSignatureMethod;
}

const NAMESPACE = '/wc/v3';

export class StoreClient extends BaseClient<StoreClientOptions> {
  readonly products: Products;
  readonly orders: Orders;
  readonly customers: Customers;
  readonly webhooks: Webhooks;

  constructor(options: StoreClientOptions) {
    const home = checkOptions(options);
    const {
      url: _url,
      consumerKey: _key,
      consumerSecret: _secret,
      queryStringAuth: _q,
      permalinks,
      apiPrefix,
      oauthSignatureMethod,
      ...core
    } = options;
    super(
      {
        rateLimit: { limit: 500, interval: '1m' },
        ...core,
        baseURL: home.toString(),
        auth: chooseAuth(options, home),
      },
      storeAdapter(permalinks ?? 'pretty', apiPrefix ?? 'wp-json'),
      options,
    );
    this.products = new Products(this);
    this.orders = new Orders(this);
    this.customers = new Customers(this);
    this.webhooks = new Webhooks(this);
  }
}

function checkOptions(options: StoreClientOptions): URL {
  const issues: ValidationIssue[] = [];
  let home: URL | undefined;
  try {
    home = new URL(options.url);
    if (home.protocol !== 'https:' && home.protocol !== 'http:')
      issues.push({ path: 'url', message: 'must be an http(s) URL' });
    if (home.username || home.password)
      issues.push({ path: 'url', message: 'must not contain credentials; use consumerKey/consumerSecret' });
  } catch {
    issues.push({
      path: 'url',
      message: `is not a URL: ${JSON.stringify(String(options.url)).slice(0, 80)}`,
    });
  }
  if (typeof options.consumerKey !== 'string' || options.consumerKey.length === 0)
    issues.push({ path: 'consumerKey', message: 'is required' });
  if (typeof options.consumerSecret !== 'string' || options.consumerSecret.length === 0)
    issues.push({ path: 'consumerSecret', message: 'is required' });
  if (home?.protocol === 'http:' && options.queryStringAuth) {
    issues.push({
      path: 'queryStringAuth',
      message:
        'would send the consumer secret in clear over plain HTTP; over http the client signs requests with OAuth 1.0a instead',
    });
  }
  if (issues.length > 0 || !home) throw new ValidationError('StoreClient options', issues);
  home.hash = '';
  home.search = '';
  home.pathname = home.pathname.replace(/\/+$/, '');
  return home;
}

/**
 * What WooCommerce accepts: over HTTPS, Basic or query keys; over plain HTTP it ignores both and only
 * one-legged OAuth 1.0a authenticates, which also never puts the secret on the wire.
 */
function chooseAuth(options: StoreClientOptions, home: URL): AuthStrategy {
  if (home.protocol === 'https:') {
    const secret = new Secret(options.consumerSecret);
    return options.queryStringAuth
      ? queryAuth({ consumer_key: options.consumerKey, consumer_secret: secret })
      : basicAuth(options.consumerKey, secret);
  }
  const credentials = {
    consumerKey: options.consumerKey,
    consumerSecret: options.consumerSecret,
    method: options.oauthSignatureMethod ?? 'HMAC-SHA256',
  };
  return signerAuth('oauth1', (request) => signOAuth(request, credentials), [options.consumerSecret]);
}

function storeAdapter(permalinks: 'pretty' | 'plain', apiPrefix: string): ServiceAdapter {
  return {
    packageName,
    packageVersion,
    defaultRateLimit: { limit: 500, interval: '1m' },
    resolveUrl(baseURL, path) {
      if (permalinks === 'plain') {
        const url = new URL(`${baseURL}/`);
        url.searchParams.set('rest_route', `${NAMESPACE}${path}`);
        return url;
      }
      return new URL(`${baseURL}/${apiPrefix}${NAMESPACE}${path}`);
    },
    parseError: wooErrorDetails,
  };
}

/** `{ code, message, data: { status } }`, with `data` sometimes a bare number (refund failures). */
export function wooErrorDetails(body: unknown, response: Response, request: PreparedRequest): ErrorDetails {
  if (!body || typeof body !== 'object') {
    return {
      message: response.statusText || undefined,
      hint: response.status === 401 ? anonymousHint(request) : undefined,
    };
  }
  const { code, message, data } = body as { code?: unknown; message?: unknown; data?: unknown };
  const details: ErrorDetails = {
    code: typeof code === 'string' ? code : undefined,
    message: typeof message === 'string' ? stripTags(message) : undefined,
  };
  const params =
    data && typeof data === 'object' ? (data as { params?: Record<string, string> }).params : undefined;
  if (params && typeof params === 'object')
    details.hint = Object.entries(params)
      .map(([name, text]) => `${name}: ${stripTags(String(text))}`)
      .join('; ');
  if (response.status === 401 && typeof code === 'string' && /^woocommerce_rest_cannot_/.test(code))
    details.hint = anonymousHint(request);
  return details;
}

/**
 * The most common support problem of this API: valid keys, yet the store treats the request as
 * anonymous. The store never says why, so the error lists the causes that produce exactly this.
 */
function anonymousHint(request: PreparedRequest): string {
  const sentBasic = request.headers.get('authorization')?.startsWith('Basic ');
  const causes =
    request.url.protocol === 'https:'
      ? [
          sentBasic
            ? 'the web server or host strips the Authorization header before PHP sees it (Apache/CGI: pass it through, or use queryStringAuth: true)'
            : 'the query parameters were dropped on the way',
          'a proxy or CDN terminates TLS and forwards plain HTTP without X-Forwarded-Proto that WordPress trusts, so WooCommerce thinks the request is not HTTPS and ignores Basic and query keys',
          'an HTTP→HTTPS or www redirect dropped the credentials (use the exact home URL of the store)',
          'the consumer key does not exist (an unknown key is treated as anonymous, not rejected)',
        ]
      : [
          "the OAuth signature was computed for a URL other than the store's home URL (scheme, www, port and path must match WordPress's Site Address)",
          'the store is really served over HTTPS (use the https:// URL, Basic auth then applies)',
          'the consumer key does not exist (an unknown key is treated as anonymous, not rejected)',
        ];
  return `The store treated this request as anonymous although credentials were sent. Likely causes: ${causes.map((c, i) => `(${i + 1}) ${c}`).join('; ')}.`;
}

function stripTags(text: string): string {
  return text.replace(/<[^>]*>/g, '');
}
