import { type HeaderSource, parseInput, readHeader, timingSafeEqual } from '@x/core';
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
    !expected.value
  ) {
    throw new TypeError(
      'verifyWebhook: pass the registered header as { name, value } (both non-empty strings)',
    );
  }
  const actual = readHeader(headers, expected.name);
  return actual !== undefined && timingSafeEqual(actual, expected.value);
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
    try {
      value = JSON.parse(text);
    } catch {
      value = text;
    }
  }
  return parseInput(transcriptWebhookNotification, value, 'transcription webhook payload');
}

/** Narrows a notification to the "job ended" kind. */
export function isTranscriptReady(
  notification: TranscriptWebhookNotification,
): notification is Extract<TranscriptWebhookNotification, { transcript_id: string }> {
  return typeof (notification as { transcript_id?: unknown }).transcript_id === 'string';
}
