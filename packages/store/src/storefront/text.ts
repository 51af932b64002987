/**
 * The Store API's text fields are HTML: product and cart item names go through its HtmlFormatter
 * (wptexturize(), so `'` arrives as `&#8217;` and `&` as `&#038;`), and error messages through esc_html().
 * Shown as text (a React child, a log line, a terminal), they need the markup taken off.
 */
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  ndash: '\u2013',
  mdash: '\u2014',
  lsquo: '\u2018',
  rsquo: '\u2019',
  ldquo: '\u201c',
  rdquo: '\u201d',
  hellip: '\u2026',
  times: '\u00d7',
};

function codePoint(value: number, entity: string): string {
  return value > 0 && value <= 0x10ffff && !(value >= 0xd800 && value <= 0xdfff)
    ? String.fromCodePoint(value)
    : entity;
}

/** `html` as plain text: tags removed, then character references decoded (an unknown one is kept as is). */
export function plainText(html: string): string {
  return String(html)
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] !== '#') return NAMED[name.toLowerCase()] ?? entity;
      const hex = name[1] === 'x' || name[1] === 'X';
      return codePoint(Number.parseInt(name.slice(hex ? 2 : 1), hex ? 16 : 10), entity);
    });
}
