/**
 * WordPress's removal of `<script>` and `<style>` elements, for the sanitizers that emulate it (prices through
 * sanitize_text_field(), settings through wp_kses_post()).
 */

type Element = 'script' | 'style';

/**
 * What `text.replace(/<(script|style)[^>]*?>.*?<\/\1>/gis, '')` gives (with `boundary`, the same with `\b` after
 * the name), in linear time. That regex scans to the end of the text again for every opening tag that is never
 * closed, so a body of repeated `<script>` held the event loop (and every other client) for minutes; here each
 * element's next closing tag is looked up once and reused until the scan passes it.
 */
export function stripScriptStyle(text: string, boundary = false): string {
  const open = boundary ? /<(script|style)\b[^>]*>/gi : /<(script|style)[^>]*?>/gi;
  // The first closing tag at or after `from` for each element; -1 when there is none left in the text.
  const closing: Record<Element, { from: number; at: number }> = {
    script: { from: -1, at: -1 },
    style: { from: -1, at: -1 },
  };
  let out = '';
  let kept = 0;
  for (let m = open.exec(text); m; m = open.exec(text)) {
    const name = m[1]!.toLowerCase() as Element;
    const from = m.index + m[0].length;
    const known = closing[name];
    if (known.from === -1 || (known.at !== -1 && known.at < from)) {
      const close = name === 'script' ? /<\/script>/gi : /<\/style>/gi;
      close.lastIndex = from;
      known.from = from;
      known.at = close.exec(text)?.index ?? -1;
    }
    if (known.at === -1) {
      // No match here: the regex tries again one character on.
      open.lastIndex = m.index + 1;
      continue;
    }
    out += text.slice(kept, m.index);
    kept = known.at + name.length + 3;
    open.lastIndex = kept;
  }
  return out + text.slice(kept);
}

/**
 * What `text.replace(/<[^>]*>/g, '')` gives (strip_tags() as the sanitizers emulate it), in linear time. The
 * regex tries every `<` after the last `>` again to the end of the text; none of them can match, so only the
 * text up to that last `>` goes through it.
 */
export function stripTags(text: string): string {
  const last = text.lastIndexOf('>');
  if (last === -1) return text;
  return text.slice(0, last + 1).replace(/<[^>]*>/g, '') + text.slice(last + 1);
}

const LINE_END = /[\n\r\u2028\u2029]/;

/**
 * What `text.replace(/&.+?;/g, '')` gives (sanitize_title()'s removal of entities), in linear time: from each
 * `&`, the first `;` at least two characters on, with no line end between. A `&` whose search fails makes
 * every `&` before the point where it stopped fail too, so the scan skips past it instead of rescanning.
 */
export function stripEntities(text: string): string {
  let out = '';
  let kept = 0;
  let failedUpTo = -1;
  for (let i = text.indexOf('&'); i !== -1; i = text.indexOf('&', i + 1)) {
    if (i < failedUpTo || i + 1 >= text.length || LINE_END.test(text[i + 1]!)) continue;
    let j = i + 2;
    while (j < text.length && text[j] !== ';' && !LINE_END.test(text[j]!)) j++;
    if (j < text.length && text[j] === ';') {
      out += text.slice(kept, i);
      kept = j + 1;
      i = j;
    } else failedUpTo = j;
  }
  return out + text.slice(kept);
}

const HEX_DIGIT = /^[0-9a-fA-F]$/;

/**
 * Removes percent-encoded octets (`%` and two hex digits) until none is left, as sanitize_text_field() loops on
 * its text. Two octets never overlap (`%` is no hex digit), so every order of removal ends in the same text,
 * which one pass finds: a removal can only join the characters around it into a new octet at the end of what
 * is kept. The rounds over the whole text were quadratic for nested octets like `%%%414141`.
 */
export function removeOctets(text: string): string {
  if (!text.includes('%')) return text;
  const kept: string[] = [];
  for (let i = 0; i < text.length; i++) {
    kept.push(text[i]!);
    const n = kept.length;
    if (n >= 3 && kept[n - 3] === '%' && HEX_DIGIT.test(kept[n - 2]!) && HEX_DIGIT.test(kept[n - 1]!))
      kept.length = n - 3;
  }
  return kept.join('');
}
