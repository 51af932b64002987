import { type HeaderSource, jsonTextDepth, readHeader, verifyHmac } from '@x/core';
import { WebhookVerificationError } from './errors.js';
import { MAX_JSON_DEPTH } from './internal/json-depth.js';
import { type UnknownWebhookEvent, type WebhookEvent, webhookEvent } from './schemas/webhooks.js';

/** One of the app's key/secret pairs; an app may have several (rotation). */
export interface WebhookToken {
  key: string;
  secret: string;
}

export interface VerifyWebhookOptions {
  /**
   * Refuse a body whose `time_ms` is further than this from now, in either direction (replay protection,
   * which the official SDK leaves to the app). Pusher retries a failed delivery for 5 minutes with the
   * same body, so keep it above 5 minutes plus clock skew if retries should get through. Default: no check.
   */
  maxAgeMs?: number | undefined;
  /** Epoch ms; for tests. */
  now?: (() => number) | undefined;
}

export interface WebhookPayload {
  time_ms: number;
  /** Known events, typed by `name`. */
  events: WebhookEvent[];
  /** Events of a name this SDK does not know, or a known name without its fields: kept as they came. */
  unrecognized: UnknownWebhookEvent[];
}

/**
 * Verifies a Pusher webhook and returns its events: `X-Pusher-Key` must be one of `tokens`' keys and
 * `X-Pusher-Signature` the hex HMAC-SHA256 of the raw body under that key's secret (compared in constant
 * time). The body is parsed only after the signature holds. Throws `WebhookVerificationError`.
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: HeaderSource,
  options: VerifyWebhookOptions & { tokens: WebhookToken | readonly WebhookToken[] },
): Promise<WebhookPayload> {
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new TypeError(
      'verifyWebhook: pass the raw body (string or bytes) exactly as received; a parsed and re-serialised body does not verify',
    );
  }
  const tokens = Array.isArray(options.tokens) ? options.tokens : [options.tokens as WebhookToken];
  const key = readHeader(headers, 'x-pusher-key');
  const candidates = tokens.filter((token) => token.key === key);
  if (!key || candidates.length === 0) {
    throw new WebhookVerificationError(
      'unknown_key',
      key
        ? `X-Pusher-Key ${JSON.stringify(key.slice(0, 40))} is not one of this app's keys`
        : 'no X-Pusher-Key header',
    );
  }
  const signature = readHeader(headers, 'x-pusher-signature');
  let valid = false;
  for (const token of candidates) {
    const ok = await verifyHmac({
      algorithm: 'SHA-256',
      secret: token.secret,
      payload: rawBody,
      signature,
      encoding: 'hex',
    });
    valid ||= ok;
  }
  if (!valid) {
    throw new WebhookVerificationError(
      'bad_signature',
      signature ? 'X-Pusher-Signature does not match the body' : 'no X-Pusher-Signature header',
    );
  }
  const payload = parseBody(rawBody);
  const { maxAgeMs } = options;
  if (maxAgeMs !== undefined) {
    const age = (options.now ?? Date.now)() - payload.time_ms;
    if (Math.abs(age) > maxAgeMs) {
      throw new WebhookVerificationError(
        'stale',
        `time_ms is ${Math.round(age / 1000)} s from now, more than maxAgeMs ${maxAgeMs}; a replay, or a clock out of sync`,
      );
    }
  }
  return payload;
}

/** The body and an event around the data a client sent: that data may nest `MAX_JSON_DEPTH` levels itself. */
const MAX_BODY_DEPTH = MAX_JSON_DEPTH + 3;

function malformed(problem: string): WebhookVerificationError {
  return new WebhookVerificationError('malformed', `the body is signed but ${problem}`);
}

/** A property the parsed JSON holds itself; never one inherited from `Object.prototype`. */
function own(record: object, key: string): unknown {
  return Object.hasOwn(record, key) ? (record as Record<string, unknown>)[key] : undefined;
}

const isRecord = (value: unknown): value is object =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Parses a verified body. Its depth is bounded before `JSON.parse` (whatever walks the events next, a logger
 * or `JSON.stringify`, would otherwise overflow the stack), and the events returned are the parsed objects
 * themselves, checked by the schemas but not copied: a copy would drop a key named `__proto__`, which
 * `JSON.parse` keeps as an ordinary own property, from a body whose every byte was signed.
 */
function parseBody(rawBody: string | Uint8Array): WebhookPayload {
  const text = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  if (jsonTextDepth(text, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) {
    throw malformed(`nests deeper than ${MAX_BODY_DEPTH} levels of arrays and objects; no webhook does`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw malformed('is not JSON');
  }
  if (!isRecord(json)) throw malformed('is not a JSON object');
  const time = own(json, 'time_ms');
  if (typeof time !== 'number' || !Number.isFinite(time)) throw malformed('its time_ms is not a number');
  const events = own(json, 'events');
  if (!Array.isArray(events)) throw malformed('its events is not an array');
  const payload: WebhookPayload = { time_ms: time, events: [], unrecognized: [] };
  events.forEach((event: unknown, i) => {
    if (!isRecord(event) || typeof own(event, 'name') !== 'string') {
      throw malformed(`its events[${i}] is not an object with a string name`);
    }
    if (webhookEvent.safeParse(event).success) payload.events.push(event as WebhookEvent);
    else payload.unrecognized.push(event as UnknownWebhookEvent);
  });
  return payload;
}
