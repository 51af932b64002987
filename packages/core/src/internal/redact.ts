import { utf8Base64 } from './encoding.js';

export const REDACTED = '[REDACTED]';
const MAX_DEPTH = 64;
const HEX_DIGEST = /^[0-9a-f]{16,}$/i;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Query parameters that carry credentials in the services we speak: WooCommerce query auth
 * (`consumer_key`/`consumer_secret`), OAuth 1.0a, Pusher's HTTP API signature, generic api keys, and the
 * Store API's order read, whose `key` and `billing_email` together open a guest's order (Order.php).
 * Matched case-insensitively, also inside array-style names such as `token[0]`.
 */
const SECRET_PARAM =
  /^(consumer_key|consumer_secret|oauth_consumer_key|auth_key|api_?key|key|secret|token|access_token|password|sig|billing_email)(\[.*\])?$/i;
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
  /** Credentials under 4 characters, matched only as whole tokens: see `add`. */
  #short: RegExp | undefined;
  #shortForms: string[] = [];
  /**
   * The last `derive`: a bearer token or Basic header derives the same values on every attempt, and
   * building their forms again cost about 2.5% of a small call's CPU (bench/transport.bench.ts profile).
   */
  #lastDerived: { key: string; child: Redactor } | undefined;

  /**
   * Registers secrets, each also in its URL-encoded and base64 forms. A secret under 4 characters is
   * redacted only where it stands alone (between non-word characters, as in `key=abc&` or `"abc"`):
   * replaced everywhere, a key such as `s` would blank every `s` in every message, and clients are
   * constructed with such keys in tests and sandboxes, so refusing them would break those.
   */
  add(...secrets: Array<string | undefined>): void {
    this.#lastDerived = undefined;
    for (const secret of secrets) {
      if (!secret) continue;
      const forms = [secret, encodeURIComponent(secret), utf8Base64(secret)];
      // A hex digest (a request signature) means the same in either case, and servers echo it in either.
      if (HEX_DIGEST.test(secret)) forms.push(secret.toLowerCase(), secret.toUpperCase());
      for (const form of forms) {
        if (form.length < 4) {
          if (!this.#shortForms.includes(form)) this.#shortForms.push(form);
        } else if (!this.#needles.includes(form)) this.#needles.push(form);
      }
    }
    // Longest first so that a secret containing another is replaced whole.
    this.#needles.sort((a, b) => b.length - a.length);
    this.#short =
      this.#shortForms.length === 0
        ? undefined
        : new RegExp(`(?<![\\w])(?:${this.#shortForms.map(escapeRegExp).join('|')})(?![\\w])`, 'g');
  }

  /** A redactor with this one's secrets and some more (values derived for one request: signatures). */
  derive(extra: readonly string[]): Redactor {
    const key = extra.join('\u0000');
    if (this.#lastDerived?.key === key) return this.#lastDerived.child;
    const child = new Redactor();
    child.#needles = [...this.#needles];
    child.#shortForms = [...this.#shortForms];
    child.add(...extra);
    this.#lastDerived = { key, child };
    return child;
  }

  redact(text: string): string {
    let out = text;
    for (const needle of this.#needles) if (out.includes(needle)) out = out.split(needle).join(REDACTED);
    if (this.#short) out = out.replace(this.#short, REDACTED);
    return out;
  }

  /** A copy of a JSON-like value with every known secret removed from its strings (and keys). */
  redactDeep(value: unknown, depth = 0): unknown {
    if (this.#needles.length === 0 && !this.#short) return value;
    if (typeof value === 'string') return this.redact(value);
    if (value === null || typeof value !== 'object') return value;
    // Deeper than any real payload: the subtree is kept only if it holds no secret (a server can nest
    // 10,000 levels, beyond what recursion should walk).
    if (depth > MAX_DEPTH)
      return this.#holdsSecret(value) ? `${REDACTED} (nested deeper than ${MAX_DEPTH} levels)` : value;
    if (Array.isArray(value)) return value.map((inner) => this.redactDeep(inner, depth + 1));
    if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null)
      return value;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value))
      out[this.redact(key)] = this.redactDeep(inner, depth + 1);
    return out;
  }

  #holdsSecret(value: object): boolean {
    try {
      const text = JSON.stringify(value);
      return text === undefined ? false : this.redact(text) !== text;
    } catch {
      return true;
    }
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
    return this.#needles.length + this.#shortForms.length;
  }
}

/** Header names whose values auth strategies fill with credentials or signatures. */
const SECRET_HEADER = /authorization|signature|sign|key|token|secret|credential|cookie/i;

/**
 * Values an auth strategy derived for one request (an OAuth signature, a signed header, query keys):
 * not among the strategy's registered secrets, yet a server echoing them back must not put them into an
 * error or a log line. Compares the request before and after the strategy ran.
 */
export function derivedSecrets(
  before: { search: string; headers: ReadonlyMap<string, string> },
  after: { url: URL; headers: Headers },
): string[] {
  const found: string[] = [];
  if (after.url.search !== before.search) {
    const earlier = new URLSearchParams(before.search);
    for (const [name, value] of after.url.searchParams)
      if (earlier.get(name) !== value && isSecretParam(name)) found.push(value);
  }
  after.headers.forEach((value, name) => {
    if (before.headers.get(name) === value || !SECRET_HEADER.test(name)) return;
    found.push(value);
    // `Bearer <token>`, `OAuth oauth_signature="…"`: the credential part too.
    const space = value.indexOf(' ');
    if (space > 0) found.push(value.slice(space + 1));
  });
  return found;
}
