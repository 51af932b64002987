/**
 * sanitizeTitle() against sanitize_title_with_dashes() transcribed step by step from wp-includes/formatting.php
 * (the regexes as PHP runs them), on ASCII texts made of the tokens that matter: tags, entities, octets and the
 * `---XX---` they are kept through, dots, slashes, underscores, whitespace. On any text: what a slug may hold.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { sanitizeTitle } from '../../src/store/runtime/formatting.js';

const TOKENS = [
  ...['<b>', '</b>', '<', '>', '<a href="x">', '&', ';', '&amp;', '&lt;', '&nbsp;', '&#160;', '&ndash;'],
  ...['&#8212;', '&mdash;', '%', '%4', '%41', '%C3%A7', '---', '41', '-', '--', '.', '/', '_', ' ', '\t'],
  ...['\n', 'A', 'z', '9', '!', '"', "'", '+', '#'],
];
const text = fc.array(fc.constantFrom(...TOKENS), { maxLength: 24 }).map((t) => t.join(''));

function withDashesLikePhp(title: string): string {
  let s = title.replace(/<[^>]*>/g, '');
  s = s.replace(/%([a-fA-F0-9][a-fA-F0-9])/g, '---$1---');
  s = s.replaceAll('%', '');
  s = s.replace(/---([a-fA-F0-9][a-fA-F0-9])---/g, '%$1');
  s = s.toLowerCase();
  for (const e of ['&nbsp;', '&#160;', '&ndash;', '&#8211;', '&mdash;', '&#8212;']) s = s.replaceAll(e, '-');
  s = s.replaceAll('/', '-');
  s = s.replace(/&.+?;/g, '');
  s = s.replaceAll('.', '-');
  s = s.replace(/[^%a-z0-9 _-]/g, '');
  s = s.replace(/\s+/g, '-');
  s = s.replace(/-+/g, '-');
  return s.replace(/^-+|-+$/g, '');
}

describe('sanitizeTitle()', () => {
  it('ends a slug of encoded octets without a dash (a counterexample the fuzz found)', () => {
    expect(sanitizeTitle('ͻ-')).toBe('%cd%bb');
    expect(sanitizeTitle('-ͻ--ͻ-')).toBe('%cd%bb-%cd%bb');
  });

  for (const run of fuzzRuns(2_000)) {
    it(`sanitize_title ${run.label}`, () => {
      let n = 0;
      fc.assert(
        fc.property(text, fc.string({ unit: 'binary', maxLength: 40 }), (t, any) => {
          n++;
          expect(sanitizeTitle(t)).toBe(withDashesLikePhp(t));
          const slug = sanitizeTitle(any);
          expect(slug).toMatch(/^(?:[a-z0-9_]|%[0-9a-f]{2}|-(?!-|$))*$/);
          expect(slug.startsWith('-')).toBe(false);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('sanitize_title', run, n);
    });
  }
});
