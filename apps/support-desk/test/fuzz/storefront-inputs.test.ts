/**
 * What the storefront page reads from outside, fuzzed with fast-check: its `?store=` query parameter (any
 * query string, and URLs of every scheme, with credentials, queries and fragments) and the desk's answer to
 * "Get help with this cart" (any JSON). Neither throws; the store is null or an http(s) origin and path with
 * nothing else, the same for the same store however it is written; a help code is six digits or null.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { helpCodeFrom } from '../../src/storefront/help.js';
import { storeUrlFrom } from '../../src/storefront/params.js';

const url = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.webUrl().map((u) => u.replace('://', '://user:secret@')),
  fc.constantFrom(
    'http://127.0.0.1:8787',
    'http://127.0.0.1:8787/',
    'https://shop.example.com/wp///',
    'javascript:alert(1)',
    'data:text/html,<p>',
    'file:///etc/passwd',
    'ftp://example.com',
    '//example.com',
    '',
  ),
  fc.string(),
);
const search = fc.oneof(
  url.map((u) => `?${new URLSearchParams({ store: u })}`),
  url.map((u) => `?store=${u}`),
  fc.string().map((s) => `?${s}`),
  fc.string(),
);

describe('the storefront’s ?store= parameter', () => {
  for (const run of fuzzRuns(500)) {
    it(`is null or an http(s) origin and path (${run.label})`, () => {
      let inputs = 0;
      fc.assert(
        fc.property(search, (s) => {
          inputs++;
          const store = storeUrlFrom(s);
          if (store === null) return;
          const parsed = new URL(store);
          expect(['http:', 'https:']).toContain(parsed.protocol);
          expect(parsed.username + parsed.password + parsed.search + parsed.hash).toBe('');
          expect(store.endsWith('/')).toBe(false);
          // Written again as a parameter, it reads the same.
          expect(storeUrlFrom(`?${new URLSearchParams({ store })}`)).toBe(store);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('support-desk storefront ?store=', run, inputs);
    });
  }

  it('keeps the store’s path, drops what a store URL cannot hold', () => {
    expect(storeUrlFrom('?store=http://127.0.0.1:8787/')).toBe('http://127.0.0.1:8787');
    expect(storeUrlFrom('?store=https%3A%2F%2Fshop.example.com%2Fwp%2F')).toBe('https://shop.example.com/wp');
    expect(storeUrlFrom('?store=http://u:p@127.0.0.1:8787')).toBeNull();
    expect(storeUrlFrom('?store=javascript:alert(1)')).toBeNull();
    expect(storeUrlFrom('?other=http://127.0.0.1:8787')).toBeNull();
  });
});

describe('the desk’s answer to "Get help with this cart"', () => {
  const json = fc.oneof(
    fc.jsonValue(),
    fc.record({
      code: fc.oneof(fc.stringMatching(/^\d{6}$/), fc.jsonValue()),
      expires_in_seconds: fc.jsonValue(),
    }),
  );
  for (const run of fuzzRuns(500)) {
    it(`is six digits or nothing (${run.label})`, () => {
      let inputs = 0;
      fc.assert(
        fc.property(json, (body) => {
          inputs++;
          const help = helpCodeFrom(body);
          if (help === null) return;
          expect(help.code).toMatch(/^\d{6}$/);
          expect(help.code).toBe((body as { code: string }).code);
          if (help.expires_in_seconds !== null) expect(help.expires_in_seconds).toBeGreaterThan(0);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('support-desk storefront help answer', run, inputs);
    });
  }
});
