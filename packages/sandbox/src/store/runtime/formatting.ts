/** wp-includes/formatting.php: the sanitizers the emulated controllers run on their input. */

import { removeOctets, stripScriptStyle, stripTags } from './markup.js';

/** PHP's trim() with its default list: space, tab, newline, carriage return, NUL and vertical tab only. */
export function phpTrim(text: string): string {
  const blank = (c: string | undefined) =>
    c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\0' || c === '\v';
  let start = 0;
  let end = text.length;
  while (start < end && blank(text[start])) start++;
  while (end > start && blank(text[end - 1])) end--;
  return text.slice(start, end);
}

/**
 * esc_html() of a `<` that opens no tag (wp_pre_kses_less_than_callback()): htmlspecialchars() with ENT_QUOTES,
 * an `&` that already starts an entity left alone (double_encode false; any well-formed name counts here,
 * where wp_kses_normalize_entities() checks its list of names).
 */
export function escHtml(text: string): string {
  return text
    .replace(/&(?![a-zA-Z][a-zA-Z0-9]*;|#\d+;|#x[0-9a-fA-F]+;)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;');
}

/**
 * sanitize_text_field() (_sanitize_text_fields( $str, false )), which wc_clean() runs on scalars: a `<` that
 * opens no tag is escaped (wp_pre_kses_less_than()), tags and script/style elements go (wp_strip_all_tags()),
 * whitespace runs become one space, the ends are trimmed, and percent-encoded octets are removed until none is
 * left, the spaces they leave collapsed. Strings reach here as valid UTF-16, so wp_check_invalid_utf8() has
 * nothing to reject.
 */
export function sanitizeTextField(value: string): string {
  let s = value;
  if (s.includes('<')) {
    s = s.replace(/<[^>]*?((?=<)|>|$)/g, (m) => (m.includes('>') ? m : escHtml(m)));
    s = phpTrim(stripTags(stripScriptStyle(s)));
    // So that no later newline stripping can join a `<` and what follows into a tag.
    s = s.replaceAll('<\n', '&lt;\n');
  }
  s = phpTrim(s.replace(/[\r\n\t ]+/g, ' '));
  const kept = removeOctets(s);
  return kept === s ? s : phpTrim(kept.replace(/ +/g, ' '));
}

/** A loose sanitize_title(): lower-case, ASCII-ish, dashes. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9\s_-]/g, '')
    .trim()
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  if (slug) return slug;
  try {
    return encodeURIComponent(text.toLowerCase()).toLowerCase().slice(0, 190);
  } catch {
    return '';
  }
}

export function uniqueSlug(base: string, taken: (slug: string) => boolean): string {
  if (!taken(base)) return base;
  for (let i = 2; ; i++) {
    const candidate = `${base}-${i}`;
    if (!taken(candidate)) return candidate;
  }
}
