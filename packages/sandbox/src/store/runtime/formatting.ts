/** wp-includes/formatting.php: the sanitizers the emulated controllers run on their input. */

import { removeOctets, stripEntities, stripScriptStyle, stripTags } from './markup.js';

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

/**
 * sanitize_title( $title ) in its default 'save' context: remove_accents() (approximated by dropping combining
 * marks after NFKD), then sanitize_title_with_dashes(): tags go, a `%` that starts no octet goes, lower case,
 * non-breaking spaces, en and em dashes (as characters or entities) and `/` become dashes, `×` an x, every other
 * entity (`&.+?;`) goes, dots become dashes, anything but letters, digits, `%`, `_`, `-` and spaces goes, space
 * runs become one dash, dash runs collapse and the ends lose theirs. Underscores stay.
 *
 * WordPress percent-encodes the non-ASCII letters that remain (utf8_uri_encode()) and strips a list of
 * punctuation (curly quotes, guillemets...); this drops them, and percent-encodes only a title with nothing else
 * left (`中文` -> `%e4%b8%ad%e6%96%87`, as WordPress gives).
 */
export function sanitizeTitle(title: string): string {
  // Octets are kept as PHP keeps them, through `---XX---` (so a `---41---` already in the title becomes `%41`).
  const plain = stripTags(title.normalize('NFKD').replace(/[\u0300-\u036f]/g, ''))
    .replace(/%([a-fA-F0-9]{2})/g, '---$1---')
    .replaceAll('%', '')
    .replace(/---([a-fA-F0-9]{2})---/g, '%$1')
    .toLowerCase()
    .replace(/[\u00a0\u2013\u2014/]|&(?:nbsp|#160|ndash|#8211|mdash|#8212);/g, '-')
    .replaceAll('\u00d7', 'x');
  const slug = stripEntities(plain)
    .replaceAll('.', '-')
    .replace(/[^%a-z0-9 _-]/g, '')
    .replace(/ +/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  if (slug !== '' || !/[^\p{ASCII}]/u.test(plain)) return slug;
  try {
    // The dashes are collapsed and trimmed after encoding, as sanitize_title_with_dashes() ends (`ͻ-` is `%cd%bb`).
    return encodeURIComponent(stripEntities(plain).trim())
      .toLowerCase()
      .replace(/[^%a-z0-9_-]/g, '')
      .slice(0, 200)
      .replace(/%[0-9a-f]?$/, '')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, '');
  } catch {
    // A lone surrogate has no UTF-8 octets to encode.
    return '';
  }
}

/** PHP's urldecode(): `+` is a space and each `%XX` its octet; octets that are no UTF-8 stay encoded. */
export function urldecode(text: string): string {
  const spaced = text.replaceAll('+', ' ');
  try {
    return decodeURIComponent(spaced.replace(/%(?![0-9a-fA-F]{2})/g, '%25'));
  } catch {
    return spaced;
  }
}

/**
 * A loose slug for the seed data and display-only slugs (lower-case, ASCII-ish, dashes); what WordPress stores
 * goes through sanitizeTitle().
 */
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
