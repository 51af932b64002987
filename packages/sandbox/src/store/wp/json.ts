/**
 * wp_json_encode() output: PHP's json_encode() escapes `/` as `\/` and every non-ASCII character as `\uXXXX`.
 * Webhook signatures are computed over these exact bytes, so the emulator produces the same ones.
 */
export function phpJsonEncode(value: unknown): string {
  const json = JSON.stringify(value) ?? 'null';
  return json
    .replace(/\//g, '\\/')
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
