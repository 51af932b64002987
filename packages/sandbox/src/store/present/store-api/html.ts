/**
 * StoreApi/Formatters/HtmlFormatter.php format(), which AbstractSchema::prepare_html_response() applies to the
 * text a Store API schema sends as HTML (a product's and a cart item's `name` and `sku`, the add-to-cart texts):
 * wp_kses_post( trim( convert_chars( wptexturize( $value ) ) ) ). So `Tom & Jerry's "best"` goes out as
 * `Tom &#038; Jerry&#8217;s &#8220;best&#8221;`. wptexturize() here is WordPress's (formatting.php) for text
 * outside tags: its static replacements, the apostrophe, quote and dash patterns, primes after a digit, 9x9 and
 * the lone `&`. wp_kses_post()'s filtering of tags and attributes is not repeated: markup passes as stored.
 */

import { phpTrim } from '../../runtime/formatting.js';

const SPACES = '(?:[\\r\\n\\t ]|\\u00a0|&nbsp;)';
// wptexturize()'s own flags: comments, which the text between tags cannot hold.
const OPEN_SQ = '<!--osq-->';
const APOS = '<!--apos-->';
const OPEN_Q = '<!--oq-->';

const STATIC: [string, string][] = [
  ...[
    "'tain't",
    "'twere",
    "'twas",
    "'tis",
    "'twill",
    "'til",
    "'bout",
    "'nuff",
    "'round",
    "'cause",
    "'em",
  ].map((w): [string, string] => [w, w.replace(/'/g, '&#8217;')]),
  ['...', '&#8230;'],
  ['``', '&#8220;'],
  ["''", '&#8221;'],
  [' (tm)', ' &#8482;'],
];

const APOS_RULES: [RegExp, string][] = [
  [new RegExp(`'(\\d\\d)'(?=$|[.,:;!?)}\\-\\]]|&gt;|${SPACES})`, 'g'), `${APOS}$1&#8217;`],
  [new RegExp(`'(\\d\\d)"(?=$|[.,:;!?)}\\-\\]]|&gt;|${SPACES})`, 'g'), `${APOS}$1&#8221;`],
  [/'(?=\d\d(?:$|(?![%\d]|[.,]\d)))/g, APOS],
  [new RegExp(`(?<=^|${SPACES})'(\\d[.,\\d]*)'`, 'g'), `${OPEN_SQ}$1&#8217;`],
  [new RegExp(`(?<=^|[([{"\\-]|&lt;|${SPACES})'`, 'g'), OPEN_SQ],
  [new RegExp(`(?<!${SPACES})'(?!$|[.,:;!?"'(){}[\\]\\-]|&[lg]t;|${SPACES})`, 'g'), APOS],
];

const QUOTE_RULES: [RegExp, string][] = [
  [new RegExp(`(?<=^|${SPACES})"(\\d[.,\\d]*)"`, 'g'), `${OPEN_Q}$1&#8221;`],
  [new RegExp(`(?<=^|[([{\\-]|&lt;|${SPACES})"(?!${SPACES})`, 'g'), OPEN_Q],
];

const DASH_RULES: [RegExp, string][] = [
  [/---/g, '&#8212;'],
  [new RegExp(`(?<=^|${SPACES})--(?=$|${SPACES})`, 'g'), '&#8212;'],
  [/(?<!xn)--/g, '&#8211;'],
  [new RegExp(`(?<=^|${SPACES})-(?=$|${SPACES})`, 'g'), '&#8211;'],
];

function apply(text: string, rules: [RegExp, string][]): string {
  return rules.reduce((t, [re, to]) => t.replace(re, to), text);
}

/** One run of text between tags. */
function texturizeText(text: string): string {
  let t = text;
  for (const [from, to] of STATIC) t = t.split(from).join(to);
  // Each quote's flags are resolved before the next rules run, as wptexturize() does: wptexturize_primes() makes
  // a quote left after a digit a prime, any other a closing quote.
  if (t.includes("'")) {
    t = apply(t, APOS_RULES)
      .replace(/(?<=\d)'/g, '&#8242;')
      .replace(/'/g, '&#8217;')
      .split(APOS)
      .join('&#8217;')
      .split(OPEN_SQ)
      .join('&#8216;');
  }
  if (t.includes('"')) {
    t = apply(t, QUOTE_RULES)
      .replace(/(?<=\d)"/g, '&#8243;')
      .replace(/"/g, '&#8221;')
      .split(OPEN_Q)
      .join('&#8220;');
  }
  if (t.includes('-')) t = apply(t, DASH_RULES);
  // 9x9 (times), but never 0x9999.
  if (/(?<=\d)x\d/.test(t)) t = t.replace(/\b(\d(?:(?<=0)[\d.,]+|[\d.,]*))x(\d[\d.,]*)\b/g, '$1&#215;$2');
  return t.replace(/&(?!#(?:\d+|x[a-f0-9]+);|[a-z1-4]{1,8};)/gi, '&#038;');
}

/** Elements whose text wptexturize() leaves alone (its default no_texturize_tags). */
const RAW = new Set(['pre', 'code', 'kbd', 'style', 'script', 'tt']);

/** wptexturize(): text outside tags (and outside RAW elements) is texturized; tags and comments pass. */
export function wptexturize(value: string): string {
  const parts = value.split(/(<!--[\s\S]*?-->|<[^>]*>)/);
  const open: string[] = [];
  return parts
    .map((part, i) => {
      if (i % 2 === 1) {
        const m = /^<(\/?)([a-z][a-z0-9]*)/i.exec(part);
        const name = m?.[2]?.toLowerCase();
        if (m && name && RAW.has(name)) {
          if (m[1]) open.pop();
          else open.push(name);
        }
        return part;
      }
      return open.length > 0 ? part : texturizeText(part);
    })
    .join('');
}

/** AbstractSchema::prepare_html_response() of a text field. */
export function htmlResponse(value: string): string {
  return phpTrim(wptexturize(value).replace(/&([^#])(?![a-z1-4]{1,8};)/gi, '&#038;$1'));
}
