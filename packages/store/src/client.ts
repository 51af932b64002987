import {
  type AuthStrategy,
  BaseClient,
  basicAuth,
  type ClientOptions,
  credentialIssue,
  type ErrorDetails,
  optionIssues,
  type PreparedRequest,
  queryAuth,
  redactUrl,
  Secret,
  type ServiceAdapter,
  signerAuth,
  ValidationError,
  type ValidationIssue,
} from '@x/core';
import { name as packageName, version as packageVersion } from '../package.json';
import { type OAuthSignatureMethod, oauthSigner, signOAuth } from './oauth.js';
import { Coupons } from './resources/coupons.js';
import { Customers } from './resources/customers.js';
import { Data } from './resources/data.js';
import { Orders } from './resources/orders.js';
import { PaymentGateways } from './resources/payment-gateways.js';
import { Products } from './resources/products.js';
import { Reports } from './resources/reports.js';
import { Settings } from './resources/settings.js';
import { ShippingMethods } from './resources/shipping-methods.js';
import { ShippingZones } from './resources/shipping-zones.js';
import { SystemStatus } from './resources/system-status.js';
import { Taxes } from './resources/taxes.js';
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
  /**
   * Send input fields this SDK does not know (a field a newer store or a plugin accepts) instead of
   * rejecting them with a `ValidationError`. Default false: a misspelt field is an error, since the store
   * would drop it silently. `client.withOptions({ allowUnknownFields: true })` scopes it to some calls.
   */
  allowUnknownFields?: boolean;
}

const NAMESPACE = '/wc/v3';

export class StoreClient extends BaseClient<StoreClientOptions> {
  readonly products: Products;
  readonly orders: Orders;
  readonly customers: Customers;
  readonly webhooks: Webhooks;
  readonly coupons: Coupons;
  readonly taxes: Taxes;
  readonly settings: Settings;
  readonly paymentGateways: PaymentGateways;
  readonly shippingZones: ShippingZones;
  readonly shippingMethods: ShippingMethods;
  readonly systemStatus: SystemStatus;
  readonly reports: Reports;
  readonly data: Data;

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
      allowUnknownFields,
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
    const context = { client: this, allowUnknownFields: allowUnknownFields ?? false };
    this.products = new Products(context);
    this.orders = new Orders(context);
    this.customers = new Customers(context);
    this.webhooks = new Webhooks(context);
    this.coupons = new Coupons(context);
    this.taxes = new Taxes(context);
    this.settings = new Settings(context);
    this.paymentGateways = new PaymentGateways(context);
    this.shippingZones = new ShippingZones(context);
    this.shippingMethods = new ShippingMethods(context);
    this.systemStatus = new SystemStatus(context);
    this.reports = new Reports(context);
    this.data = new Data(context);
  }
}

function checkOptions(options: StoreClientOptions): URL {
  if (typeof options !== 'object' || options === null)
    throw new ValidationError('StoreClient options', [
      { path: '', message: 'expected an options object with url, consumerKey and consumerSecret' },
    ]);
  const issues: ValidationIssue[] = optionIssues(options, {
    url: 'string',
    queryStringAuth: 'boolean',
    permalinks: { enum: ['pretty', 'plain'] },
    apiPrefix: 'string',
    oauthSignatureMethod: { enum: ['HMAC-SHA256', 'HMAC-SHA1'] },
    allowUnknownFields: 'boolean',
  });
  let home: URL | undefined;
  try {
    if (typeof options.url !== 'string') throw new TypeError('not a string');
    home = new URL(options.url);
    if (home.protocol !== 'https:' && home.protocol !== 'http:')
      issues.push({ path: 'url', message: 'must be an http(s) URL' });
    if (home.username || home.password)
      issues.push({ path: 'url', message: 'must not contain credentials; use consumerKey/consumerSecret' });
    const api = apiPath(home, options.apiPrefix ?? 'wp-json');
    if (api) issues.push({ path: 'url', message: api });
  } catch {
    if (options.url === undefined) issues.push({ path: 'url', message: 'is required' });
    else if (typeof options.url === 'string')
      issues.push({
        path: 'url',
        message: `is not a URL: ${JSON.stringify(redactUrl(options.url)).slice(0, 80)}`,
      });
  }
  for (const name of ['consumerKey', 'consumerSecret'] as const) {
    const value = options[name];
    const issue =
      value === undefined || value === ''
        ? { path: name, message: 'is required' }
        : credentialIssue(name, value, { inHeader: false });
    if (issue) issues.push(issue);
  }
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
 * A URL that already points at the REST API (`…/wp-json/wc/v3`, `?rest_route=`) would get the API path
 * twice and fail with `404 rest_no_route`, which names neither cause nor URL. Refused at construction,
 * rather than stripped, so the URL in the code is the one requests go to.
 */
function apiPath(url: URL, prefix: string): string | undefined {
  const at = prefix ? url.pathname.search(new RegExp(`/(index\\.php/)?${escapeRegExp(prefix)}(/|$)`)) : -1;
  const route = url.searchParams.get('rest_route');
  const routed = route !== null;
  if (at === -1 && !routed) return undefined;
  const home = `${url.origin}${at === -1 ? url.pathname : url.pathname.slice(0, at)}`.replace(/\/+$/, '');
  // Only the route of the query is shown: the rest may hold keys.
  const given = `${url.origin}${url.pathname}${routed ? `?rest_route=${route}` : ''}`;
  return routed
    ? `contains ?rest_route= (${given}): pass the store's home URL (${home}) and permalinks: 'plain'; the client adds ?rest_route=/wc/v3/... itself`
    : `points at the REST API (${given}): pass the store's home URL (${home}), without /${prefix}; the client adds /${prefix}/wc/v3 itself`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
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
      : basicAuth(options.consumerKey, secret, {
          usernameOption: 'consumerKey',
          passwordOption: 'consumerSecret',
        });
  }
  const method = options.oauthSignatureMethod ?? 'HMAC-SHA256';
  const credentials = {
    consumerKey: options.consumerKey,
    method,
    sign: oauthSigner(options.consumerSecret, method),
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
      hint:
        response.status === 401
          ? anonymousHint(request)
          : response.status === 404
            ? noApiHint(request)
            : undefined,
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
  const route = request.url.searchParams.get('rest_route') ?? request.url.pathname;
  if (code === 'rest_no_route' && route.includes(NAMESPACE))
    details.hint ??=
      'WordPress answered, but not with this WooCommerce route: check that WooCommerce is active (3.5 or later serves /wc/v3) and that its version has this endpoint.';
  if (code === 'woocommerce_rest_authentication_error' && /signature does not match/i.test(String(message)))
    details.hint = signatureHint(request);
  return details;
}

/**
 * WooCommerce recomputes the OAuth signature over its own home URL (WordPress's Site Address) with the
 * request's path and query, so anything that makes the URL we signed differ from that one fails here,
 * with a message that names no URL. Say which one we signed and what usually differs.
 */
function signatureHint(request: PreparedRequest): string {
  const { url } = request;
  const signed = `${request.method} ${url.origin}${url.pathname}`;
  const route = url.searchParams.get('rest_route');
  const causes = [
    `the store's Site Address (WordPress Settings → General) is not ${url.origin}: scheme, host and port must be exactly the same (http vs https, localhost vs 127.0.0.1, www or not, :8080)`,
    'a proxy, tunnel or container port mapping in between changes the host, port or scheme the store sees (pass the URL WordPress itself is configured with)',
    route === null
      ? "the store is reached through a different path: WordPress in a subdirectory (include it in url), a custom REST prefix (apiPrefix), or plain permalinks (permalinks: 'plain' sends ?rest_route=)"
      : `the store serves pretty permalinks and rebuilt the URL differently (try without permalinks: 'plain')`,
    'the consumer secret does not belong to this consumer key',
  ];
  return `The store computed a different OAuth 1.0a signature for ${signed}${route ? `?rest_route=${route}` : ''}. Likely causes: ${causes.map((c, i) => `(${i + 1}) ${c}`).join('; ')}.`;
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

/**
 * A 404 that is not a WordPress REST error (an HTML page, a bare "Not Found"): no REST API answered at
 * that URL at all, which a bare "404 Not Found" does not say. Names the URL (keys removed) and the causes.
 */
function noApiHint(request: PreparedRequest): string {
  const url = redactUrl(request.url.toString());
  return `No WordPress REST API answered at ${request.method} ${url}. Check: (1) the url option is the store's home URL (where WordPress is installed, including any subdirectory); (2) pretty permalinks are on (Settings → Permalinks), or pass permalinks: 'plain' to send ?rest_route=; (3) WooCommerce is installed and active on that site.`;
}

function stripTags(text: string): string {
  return text.replace(/<[^>]*>/g, '');
}
