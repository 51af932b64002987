/**
 * The Store API's HTML formatter (present/store-api/html.ts, HtmlFormatter.php's wptexturize() and
 * convert_chars()) on texts made of the tokens it rewrites: whatever it is given, it answers, leaves every tag
 * as it was, and leaves no straight quote and no lone `&` in the text between tags (outside raw elements).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { htmlResponse } from '../../src/store/present/store-api/html.js';

const TOKENS = [
  ...[
    "'",
    '"',
    '-',
    '--',
    '---',
    '...',
    '``',
    "''",
    ' (tm)',
    "'tis",
    'x',
    '0x',
    '9',
    ' ',
    '\u00a0',
    '&nbsp;',
  ],
  ...['&', '&amp;', '&#38;', '&#x26;', '&;', ';', '<', '>', '<b>', '</b>', '<a href="?a=1&b=2">', '</a>'],
  ...['<!--', '-->', '(', '[', '{', '%', '.', ',', 'a', 'A', '\u0001', '\u0002', '\u0003'],
];
const text = fc.array(fc.constantFrom(...TOKENS), { maxLength: 24 }).map((t) => t.join(''));

describe('the Store API HTML formatter', () => {
  for (const run of fuzzRuns(2_000)) {
    it(`store-api html ${run.label}`, async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(text, async (t) => {
          n++;
          const out = htmlResponse(t);
          const tags = (s: string) => s.match(/<!--[\s\S]*?-->|<[^>]*>/g) ?? [];
          expect(tags(out).map((tag) => tag.replace(/&#038;/g, '&'))).toEqual(tags(t.trim()));
          const controls = (s: string) => [...s].filter((c) => c.charCodeAt(0) < 4).join('');
          expect(controls(out)).toBe(controls(t));
          for (const between of out.split(/<!--[\s\S]*?-->|<[^>]*>/)) {
            expect(between).not.toMatch(/["']|&(?!#(?:\d+|x[a-f0-9]+);|[a-z1-4]{1,8};)/i);
          }
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('store-api html', run, n);
    });
  }
});
