import { parseWebhook as parseStoreWebhook, ValidationError } from '@x/store';
import {
  isTranscriptReady,
  parseWebhook as parseTranscriptionWebhook,
  verifyWebhook as verifyTranscriptionWebhook,
} from '@x/transcription';
import type { Hono } from 'hono';
import { TRANSCRIPTION_WEBHOOK_HEADER } from '../calls/pipeline.js';
import type { DeskContext } from '../context.js';
import { HttpError } from '../errors.js';
import { publishStoreEvent } from '../store-webhooks.js';

/** Webhook bodies are small JSON documents; anything larger is not one of ours. */
const MAX_WEBHOOK_BYTES = 1024 * 1024;

export const STORE_WEBHOOK_PATH = '/api/webhooks/store';
export const TRANSCRIPTION_WEBHOOK_PATH = '/api/webhooks/transcription';

async function rawBody(request: Request): Promise<Uint8Array> {
  if (Number(request.headers.get('content-length')) > MAX_WEBHOOK_BYTES) {
    throw new HttpError(413, 'webhook body too large', 'too_large');
  }
  const body = new Uint8Array(await request.arrayBuffer());
  if (body.byteLength > MAX_WEBHOOK_BYTES) throw new HttpError(413, 'webhook body too large', 'too_large');
  return body;
}

/** Store deliveries (signed) and transcription notifications (carrying our header), both verified. */
export function webhookRoutes(app: Hono, desk: DeskContext): void {
  app.post(STORE_WEBHOOK_PATH, async (c) => {
    const body = await rawBody(c.req.raw);
    let event: Awaited<ReturnType<typeof parseStoreWebhook>>;
    try {
      event = await parseStoreWebhook(body, c.req.raw.headers, desk.config.store.webhookSecret);
    } catch (error) {
      if (error instanceof ValidationError) throw new HttpError(401, error.message, 'invalid_webhook');
      throw error;
    }
    if (event.topic !== 'ping') await publishStoreEvent(event, desk.broadcaster);
    return c.json({ ok: true });
  });

  app.post(TRANSCRIPTION_WEBHOOK_PATH, async (c) => {
    const registered = { name: TRANSCRIPTION_WEBHOOK_HEADER, value: desk.config.transcription.webhookSecret };
    if (!verifyTranscriptionWebhook(c.req.raw.headers, registered)) {
      throw new HttpError(401, `missing or wrong ${TRANSCRIPTION_WEBHOOK_HEADER} header`, 'invalid_webhook');
    }
    const body = await rawBody(c.req.raw);
    let notification: ReturnType<typeof parseTranscriptionWebhook>;
    try {
      notification = parseTranscriptionWebhook(body);
    } catch (error) {
      throw new HttpError(400, error instanceof Error ? error.message : String(error), 'invalid_webhook');
    }
    // Answer at once (the service waits 10 s at most); the analysis goes on afterwards.
    if (isTranscriptReady(notification)) void desk.pipeline.onWebhook(notification.transcript_id);
    return c.json({ ok: true });
  });
}
