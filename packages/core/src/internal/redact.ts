import { utf8Base64 } from './encoding.js';

export const REDACTED = '[REDACTED]';

/**
 * Query parameters that carry credentials in the services we speak: WooCommerce query auth
 * (`consumer_key`/`consumer_secret`), OAuth 1.0a, Pusher's HTTP API signature, generic api keys.
 * Matched case-insensitively, also inside array-style names such as `token[0]`.
 */
const SECRET_PARAM =
  /^(consumer_key|consumer_secret|oauth_consumer_key|auth_key|api_?key|key|secret|token|access_token|password|sig)(\[.*\])?$/i;
/**
 * Any name with "signature" in it (`oauth_signature`, `auth_signature`, `X-Amz-Signature`,
 * `body_signature`), except the name of the method (`oauth_signature_method`), which is public.
 */
const SIGNATURE_PARAM = /signature(?!_?method)/i;

export function isSecretParam(name: string): boolean {
  return SECRET_PARAM.test(name) || SIGNATURE_PARAM.test(name);
}

/** Response headers whose value is a URL, which servers build from the request's (signed) query string. */
const URL_HEADERS = new Set(['location', 'content-location']);

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}

/** Removes userinfo and secret query values from a URL; leaves non-URLs untouched apart from the same query rule. */
export function redactUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return input.replace(/([?&])([^=&#]+)=([^&#]*)/g, (whole, sep: string, name: string) =>
      isSecretParam(decodeName(name)) ? `${sep}${name}=${REDACTED}` : whole,
    );
  }
  if (url.username || url.password) {
    url.username = '';
    url.password = '';
  }
  let changed = false;
  const params = new URLSearchParams();
  for (const [name, value] of url.searchParams) {
    if (isSecretParam(name)) {
      params.append(name, REDACTED);
      changed = true;
    } else params.append(name, value);
  }
  if (changed) url.search = params.toString().replaceAll(encodeURIComponent(REDACTED), REDACTED);
  return url.toString();
}

/**
 * Replaces every known secret value (and its base64 form, which is how Basic auth carries it) in text.
 * Auth strategies register their secrets here, so a secret echoed back in a server's error message or
 * a Link header cannot reach a log line or an error message either.
 */
export class Redactor {
  #needles: string[] = [];

  add(...secrets: Array<string | undefined>): void {
    for (const secret of secrets) {
      // Very short values would blank out ordinary words; real credentials are never this short.
      if (!secret || secret.length < 4) continue;
      for (const form of [secret, encodeURIComponent(secret), utf8Base64(secret)]) {
        if (!this.#needles.includes(form)) this.#needles.push(form);
      }
    }
    // Longest first so that a secret containing another is replaced whole.
    this.#needles.sort((a, b) => b.length - a.length);
  }

  redact(text: string): string {
    let out = text;
    for (const needle of this.#needles) if (out.includes(needle)) out = out.split(needle).join(REDACTED);
    return out;
  }

  /** A copy of a JSON-like value with every known secret removed from its strings (and keys). */
  redactDeep(value: unknown, depth = 0): unknown {
    if (this.#needles.length === 0) return value;
    if (typeof value === 'string') return this.redact(value);
    if (value === null || typeof value !== 'object' || depth > 8) return value;
    if (Array.isArray(value)) return value.map((inner) => this.redactDeep(inner, depth + 1));
    if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null)
      return value;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value))
      out[this.redact(key)] = this.redactDeep(inner, depth + 1);
    return out;
  }

  /**
   * Headers with secrets removed from values, and secret query parameters removed from the URLs in
   * `Link`, `Location` and `Content-Location` (a redirect echoes the signed query it was sent).
   */
  redactHeaders(headers: Headers): Headers {
    const out = new Headers();
    headers.forEach((value, name) => {
      const clean =
        name === 'link'
          ? value.replace(/<([^>]*)>/g, (_, url: string) => `<${redactUrl(url)}>`)
          : URL_HEADERS.has(name)
            ? redactUrl(value)
            : value;
      out.append(name, this.redact(clean));
    });
    return out;
  }

  get size(): number {
    return this.#needles.length;
  }
}
