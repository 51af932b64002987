import {
  type HeaderSource,
  jsonTextDepth,
  parseInput,
  readHeader,
  timingSafeEqual,
  ValidationError,
  valueDeeperThan,
} from '@x/core';
import { type TranscriptWebhookNotification, transcriptWebhookNotification } from './schemas/webhooks.js';

/** The header you registered with `webhook_auth_header_name` / `webhook_auth_header_value`. */
export interface WebhookAuthHeader {
  name: string;
  value: string;
}

/**
 * True when the request carries the header registered with the transcript. The service signs nothing: this
 * header (plus its fixed source IPs) is the only proof a notification is from it, so compare it in constant
 * time and keep the value as secret as an API key.
 */
export function verifyWebhook(headers: HeaderSource, expected: WebhookAuthHeader): boolean {
  if (
    !expected ||
    typeof expected.name !== 'string' ||
    typeof expected.value !== 'string' ||
    !expected.name ||
    !expected.value
  ) {
    throw new ValidationError('verifyWebhook expected header', [
      {
        path: 'expected',
        message: 'must be the registered header as { name, value }, both non-empty strings',
      },
    ]);
  }
  if (typeof headers !== 'object' || headers === null) {
    throw new ValidationError('verifyWebhook headers', [
      { path: 'headers', message: 'must be a Headers object or a Node headers object' },
    ]);
  }
  const actual: unknown = readHeader(headers, expected.name);
  // Frameworks hand over whatever the request carried; anything but a string is simply not the header.
  return typeof actual === 'string' && timingSafeEqual(actual, expected.value);
}

/**
 * The notification's body, typed: `{ transcript_id, status }` when a job ends, or `{ status:
 * "redacted_audio_ready", redacted_audio_url }`. Accepts the raw body (string or bytes) or parsed JSON. The
 * payload carries no transcript: fetch it with `transcripts.get(transcript_id)`.
 */
export function parseWebhook(body: string | Uint8Array | unknown): TranscriptWebhookNotification {
  let value = body;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
    if (jsonTextDepth(text, MAX_DEPTH) > MAX_DEPTH) throw tooDeep();
    try {
      value = JSON.parse(text);
    } catch {
      throw new ValidationError(WHAT, [
        { path: '', message: 'is not JSON (a notification is a JSON object)' },
      ]);
    }
  } else if (valueDeeperThan(body, MAX_DEPTH)) throw tooDeep();
  return parseInput(transcriptWebhookNotification, value, WHAT);
}

const WHAT = 'transcription webhook payload';

/*
 * A notification is a flat object. Anything nested this deep is not one, and is refused before parsing:
 * unknown fields pass through the loose schema, so a body nested 10,000 levels would otherwise come back to
 * the caller whole, and overflow the stack of whatever walks it next (a logger, JSON.stringify).
 */
const MAX_DEPTH = 64;

function tooDeep(): ValidationError {
  return new ValidationError(WHAT, [
    { path: '', message: `nests deeper than ${MAX_DEPTH} levels; a notification is a flat JSON object` },
  ]);
}

/** Narrows a notification to the "job ended" kind. */
export function isTranscriptReady(
  notification: TranscriptWebhookNotification,
): notification is Extract<TranscriptWebhookNotification, { transcript_id: string }> {
  return typeof (notification as { transcript_id?: unknown }).transcript_id === 'string';
}
