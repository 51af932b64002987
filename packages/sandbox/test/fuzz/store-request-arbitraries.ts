/**
 * fast-check arbitraries for the store emulator's request line and headers: query strings with PHP array
 * names (some nested past PHP's limit) and malformed percent-encoding, Authorization headers with garbage and
 * OAuth 1.0a parameters, Content-Types, and path segments under `/wp-json` and `/?rest_route=`.
 */
import fc from 'fast-check';
import { FIELD_NAMES, PROTO_KEYS } from './store-arbitraries.js';

const HEX = '0123456789abcdefABCDEF';

/** A query-string component: text, then percent-encoding valid, truncated, non-hex or not UTF-8. */
export const queryComponent: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 8 }).map(encodeURIComponent) },
      fc
        .string({ unit: 'binary', maxLength: 4 })
        .map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, ''))),
      fc.constantFrom(
        '%',
        '%2',
        '%zz',
        '%E0%80',
        '%C0%AF',
        '%FF',
        '%00',
        '%25',
        '+',
        '%5B',
        '%5D',
        '[',
        ']',
        '[]',
      ),
      fc.tuple(fc.constantFrom(...HEX), fc.constantFrom(...HEX)).map(([a, b]) => `%${a}${b}`),
      fc.integer({ min: -3, max: 1_000 }).map(String),
      fc.constantFrom('1e999', '9007199254740993', '-0', '0x10', '1.5', '%207'),
    ),
    { maxLength: 4 },
  )
  .map((parts) => parts.join(''));

/** The collection parameters the list endpoints take, plus PHP array forms and random names. */
const QUERY_NAMES = [
  ...'page per_page offset orderby order search include exclude parent status context _fields _envelope _method'.split(
    ' ',
  ),
  ...'after before modified_after modified_before dates_are_gmt product customer sku type category tag'.split(
    ' ',
  ),
  ...'min_price max_price stock_status on_sale featured email role code period date_min date_max dp force'.split(
    ' ',
  ),
  ...'rest_route consumer_key consumer_secret oauth_signature oauth_nonce oauth_timestamp oauth_consumer_key'.split(
    ' ',
  ),
] as const;

/** `name[][x]...` nested around PHP's max_input_nesting_level (64) and far beyond, up to `maxChars` long. */
export function deepName(maxChars: number): fc.Arbitrary<string> {
  return fc
    .record({
      name: fc.constantFrom(...QUERY_NAMES, ...FIELD_NAMES),
      depth: fc.oneof(fc.integer({ min: 60, max: 70 }), fc.integer({ min: 71, max: maxChars })),
      index: fc.constantFrom('[]', '[a]', '[0]', '[__proto__]'),
    })
    .map(
      ({ name, depth, index }) =>
        `${name}${index.repeat(Math.min(depth, Math.floor(maxChars / index.length)))}`,
    );
}

export const queryString: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...QUERY_NAMES) },
        fc.constantFrom(...QUERY_NAMES).map((n) => `${n}[]`),
        fc.tuple(fc.constantFrom(...QUERY_NAMES), queryComponent).map(([n, k]) => `${n}[${k}]`),
        fc.constantFrom(...PROTO_KEYS),
        fc.constantFrom(...PROTO_KEYS).map((k) => `include[${k}]`),
        queryComponent,
      ),
      fc.option(queryComponent, { nil: undefined }),
    ),
    { maxLength: 6 },
  )
  .chain((pairs) =>
    // At most one deep name, so the request line stays within Node's 16 KiB header limit.
    fc
      .oneof({ weight: 5, arbitrary: fc.constant(null) }, fc.tuple(deepName(7_000), fc.nat(pairs.length)))
      .map((deep) => {
        const all: [string, string | undefined][] = [...pairs];
        if (deep) all.splice(deep[1], 0, [deep[0], '1']);
        return all.map(([k, v]) => (v === undefined ? k : `${k}=${v}`)).join('&');
      }),
  );

/** Bytes a header value may carry over node:http (no CR, LF or NUL; latin1). */
export const headerText: fc.Arbitrary<string> = fc
  .uint8Array({ maxLength: 48 })
  .map((bytes) => Buffer.from(bytes.filter((b) => b === 9 || (b >= 32 && b !== 127))).toString('latin1'));

/** Authorization headers: the valid key most of the time (so inputs reach handlers), garbage otherwise. */
export function authorization(key: string, secret: string): fc.Arbitrary<string | undefined> {
  const b64 = (s: string | Uint8Array) => Buffer.from(s).toString('base64');
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant(`Basic ${b64(`${key}:${secret}`)}`) },
    fc.constant(undefined),
    fc.uint8Array({ maxLength: 64 }).map((bytes) => `Basic ${b64(bytes)}`),
    headerText.map((t) => `Basic ${t}`),
    fc.tuple(headerText, headerText).map(([k, s]) => `Basic ${b64(`${k}:${s}`)}`),
    fc.constant(`Basic ${b64(`${key}:`)}`),
    fc.constant(`Basic ${b64(key)}`),
    fc
      .array(
        fc.tuple(
          fc.constantFrom(
            'oauth_consumer_key',
            'oauth_signature',
            'oauth_nonce',
            'oauth_timestamp',
            'realm',
            'x',
          ),
          fc.oneof(fc.constant(key), headerText),
        ),
        { maxLength: 6 },
      )
      .map((ps) => `OAuth ${ps.map(([k, v]) => `${k}="${v.replace(/"/g, '')}"`).join(', ')}`),
    headerText,
    headerText.map((t) => `Bearer ${t}`),
  );
}

export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  fc.constantFrom(
    undefined,
    'application/json; charset=UTF-8',
    'APPLICATION/JSON;charset=latin1',
    'application/x-www-form-urlencoded',
    'application/merge-patch+json',
    'multipart/form-data; boundary=x',
    'text/plain',
    'application/octet-stream',
    ';;;',
    '',
  ),
  headerText,
);

/** Path segments to drop into a route: real ones, ids, and bytes to percent-encode (some malformed). */
export const pathSegment: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom('wc', 'v3', 'products', 'orders', 'batch', 'notes', 'refunds', 'settings'),
  },
  fc.constantFrom(
    'customers',
    'coupons',
    'taxes',
    'classes',
    'shipping',
    'zones',
    'webhooks',
    'reports',
    'data',
  ),
  fc.constantFrom(
    'system_status',
    'tools',
    'variations',
    'attributes',
    'terms',
    'general',
    'countries',
    'wp',
    'v2',
  ),
  fc.nat(100).map(String),
  fc.constantFrom(
    '99999999999999999999',
    '-1',
    '0',
    '1e3',
    '..',
    '.',
    '',
    '%2F',
    '%2e%2e',
    '%',
    '%zz',
    '%E0%80',
  ),
  fc.constantFrom(...PROTO_KEYS),
  queryComponent,
);
