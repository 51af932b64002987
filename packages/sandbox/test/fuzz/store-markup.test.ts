/**
 * The linear markup sanitizers against the regexes and loops they replaced (the reference models), on texts
 * made of the tokens that matter: tags of both elements in any case, unclosed and nested ones, entities, line
 * ends, nested percent-octets; then the inputs that made the old ones quadratic, answered over a real socket.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { removeOctets, stripEntities, stripScriptStyle, stripTags } from '../../src/store/runtime/markup.js';
import { storeApi } from '../helpers/http.js';

const TOKENS = [
  ...[
    '<script>',
    '</script>',
    '<SCRIPT a="1">',
    '</Script>',
    '<scripts>',
    '<script',
    '</script',
    '<script/>',
  ],
  ...['<style>', '</style>', '<STYLE x>', '</STYLE>', '<styles>', '<style', '</ style>', '<script<style>'],
  ...['<', '>', '/', 'a', '1.5', '\n', '\r', '\u2028', ' ', '<b>', '</b>', 'İ'],
  ...['&', ';', '&amp;', '&#', '&;', '%', '%4', '%41', '4', '1', 'F', 'g', '%%'],
];
const text = fc.array(fc.constantFrom(...TOKENS), { maxLength: 24 }).map((t) => t.join(''));

/** sanitize_text_field()'s loop: str_replace() of the first octet found, until none is left. */
function octetsLikePhp(text: string): string {
  let s = text;
  for (let m = /%[a-f0-9]{2}/i.exec(s); m; m = /%[a-f0-9]{2}/i.exec(s)) s = s.split(m[0]).join('');
  return s;
}

describe('the markup sanitizers against their reference models', () => {
  for (const run of fuzzRuns(2_000)) {
    it(`store markup sanitizers ${run.label}`, async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(text, async (t) => {
          n++;
          expect(stripScriptStyle(t)).toBe(t.replace(/<(script|style)[^>]*?>.*?<\/\1>/gis, ''));
          expect(stripScriptStyle(t, true)).toBe(t.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/gi, ''));
          expect(stripTags(t)).toBe(t.replace(/<[^>]*>/g, ''));
          expect(stripEntities(t)).toBe(t.replace(/&.+?;/g, ''));
          expect(removeOctets(t)).toBe(octetsLikePhp(t));
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('store markup sanitizers', run, n);
    });
  }
});

describe('inputs that made the sanitizers quadratic', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ store: { rateLimit: false, seed: 'none' } });
  });
  afterAll(() => sandbox.close());

  // Each took minutes of blocked event loop (past the test's timeout), holding every other client.
  it('a price of 400,000 unclosed <script> tags is sanitized like any other', async () => {
    const res = await storeApi(sandbox, 'POST', '/products', {
      name: 'p',
      regular_price: `<script>${'<script>'.repeat(400_000)}7`,
    });
    expect(res.status).toBe(201);
    expect(res.json.regular_price).toBe('7');
  });

  it('a setting of 400,000 unclosed <style> tags is kept as text', async () => {
    const value = `${'<style>'.repeat(400_000)}x`;
    const res = await storeApi(sandbox, 'PUT', '/settings/general/woocommerce_store_city', { value });
    expect(res.status).toBe(200);
    expect(res.json.value).toBe(value);
  });

  it('percent-octets nested a million deep are removed in one pass', async () => {
    const price = `${'%'.repeat(1_000_000)}${'41'.repeat(1_000_000)}7.5`;
    const res = await storeApi(sandbox, 'POST', '/products', { name: 'p', regular_price: price });
    expect(res.status).toBe(201);
    expect(res.json.regular_price).toBe('7.5');
    const tax = await storeApi(sandbox, 'POST', '/taxes', {
      country: 'US',
      rate: '1',
      city: `${'%'.repeat(500_000)}${'4a'.repeat(500_000)}Oslo`,
    });
    expect(tax.status).toBe(201);
    expect(tax.json.city).toBe('OSLO');
  });

  it('a coupon code or attribute name of 500,000 unclosed tags or entities', async () => {
    const coupon = await storeApi(sandbox, 'POST', '/coupons', { code: `${'<a '.repeat(500_000)}x` });
    expect(coupon.status).toBe(201);
    const attribute = await storeApi(sandbox, 'POST', '/products/attributes', {
      name: `${'<&'.repeat(500_000)}Size`,
    });
    expect(attribute.status).toBe(201);
    expect(attribute.json.slug).toBe('pa_size');
  });
});
