import { jsonTextDepth } from '../../kit/json-depth.js';
import { invalidJson } from './errors.js';
import { isPlainObject } from './values.js';

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

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Max nesting PHP's json_decode() accepts by default. */
const PHP_JSON_DEPTH = 512;

function hasLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.some(hasLoneSurrogate);
  if (isPlainObject(value))
    return Object.entries(value).some(([k, v]) => LONE_SURROGATE.test(k) || hasLoneSurrogate(v));
  return false;
}

/** json_decode($body, true) failure modes, as WP_REST_Request::parse_json_params() reports them. */
export function decodeJsonLikePhp(body: Buffer): unknown {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw invalidJson('utf8');
  }
  if (jsonTextDepth(text, PHP_JSON_DEPTH) > PHP_JSON_DEPTH) {
    // PHP reports a syntax error first when the text is not JSON at all; depth otherwise.
    try {
      JSON.parse(text);
    } catch {
      throw invalidJson('syntax');
    }
    throw invalidJson('depth');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidJson('syntax');
  }
  if (hasLoneSurrogate(parsed)) throw invalidJson('utf16');
  return parsed;
}
