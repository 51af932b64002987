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
