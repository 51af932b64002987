/**
 * The linear stripScriptStyle() against the regexes it replaced (the reference model), on texts made of the
 * tokens that matter: opening and closing tags of both elements in any case, unclosed and nested ones, and
 * text between; then the inputs that made those regexes quadratic, answered over a real socket.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { stripScriptStyle } from '../../src/store/markup.js';
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
  ...['<', '>', '/', 'a', '1.5', '\n', ' ', '<b>', '</b>', '%41', 'İ'],
];
const text = fc.array(fc.constantFrom(...TOKENS), { maxLength: 24 }).map((t) => t.join(''));

describe('stripScriptStyle against the regexes', () => {
  for (const run of fuzzRuns(2_000)) {
    it(`store script/style stripping ${run.label}`, async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(text, async (t) => {
          n++;
          expect(stripScriptStyle(t)).toBe(t.replace(/<(script|style)[^>]*?>.*?<\/\1>/gis, ''));
          expect(stripScriptStyle(t, true)).toBe(t.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/gi, ''));
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('store script/style stripping', run, n);
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

  it('percent-octets nested a million deep end in the fatal error PHP reaches, not a held event loop', async () => {
    const res = await storeApi(sandbox, 'POST', '/products', {
      name: 'p',
      regular_price: `${'%'.repeat(1_000_000)}${'41'.repeat(1_000_000)}`,
    });
    expect(res.status).toBe(500);
    expect(res.json.code).toBe('internal_server_error');
    const next = await storeApi(sandbox, 'POST', '/products', { name: 'q', regular_price: '%41%4%4141.5' });
    expect(next.status).toBe(201);
    expect(next.json.regular_price).toBe('1.5');
  });
});
