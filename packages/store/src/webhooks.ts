import { type HeaderSource, readHeader, toIssues, ValidationError, verifyHmac } from '@x/core';
import * as z from 'zod/mini';
import { type Customer, customer } from './schemas/customers.js';
import { type Order, order } from './schemas/orders.js';
import { type Product, product } from './schemas/products.js';

/**
 * True when `X-WC-Webhook-Signature` is the base64 HMAC-SHA256 of the raw body under the webhook's
 * secret. Pass the body exactly as received (a re-serialised JSON object does not verify).
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: HeaderSource,
  secret: string,
): Promise<boolean> {
  return verifyHmac({
    algorithm: 'SHA-256',
    secret,
    payload: rawBody,
    signature: readHeader(headers, 'x-wc-webhook-signature'),
    encoding: 'base64',
  });
}

export interface Delivery<R extends string, E extends string, P> {
  topic: `${R}.${E}`;
  resource: R;
  event: E;
  webhookId: number | undefined;
  deliveryId: string | undefined;
  source: string | undefined;
  payload: P;
}

export type WebhookEvent =
  /** Sent once when a webhook is created: form-encoded, unsigned, carries nothing but the id. */
  | { topic: 'ping'; webhookId: number }
  | Delivery<'order', 'created' | 'updated' | 'restored', Order>
  | Delivery<'product', 'created' | 'updated' | 'restored' | 'published', Product>
  | Delivery<'customer', 'created' | 'updated', Customer>
  | Delivery<'order' | 'product' | 'customer' | 'coupon', 'deleted', { id: number }>
  | Delivery<'coupon', 'created' | 'updated' | 'restored', Record<string, unknown>>
  | Delivery<'action', string, { action: string; arg: unknown }>;

const payloadSchemas: Record<string, z.ZodMiniType> = {
  order,
  product,
  customer,
  coupon: z.looseObject({ id: z.number() }),
  action: z.looseObject({ action: z.string(), arg: z.unknown() }),
};
const deleted = z.looseObject({ id: z.number() });

/**
 * Verifies and parses one delivery, typed by its topic. Throws `ValidationError` for a bad signature or
 * a body that does not match its topic. The creation ping (unsigned, `webhook_id=<id>`) is returned as
 * `{ topic: 'ping' }`: it carries no data, so accepting it unsigned risks nothing.
 */
export async function parseWebhook(
  rawBody: string | Uint8Array,
  headers: HeaderSource,
  secret: string,
): Promise<WebhookEvent> {
  const text = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  const topic = readHeader(headers, 'x-wc-webhook-topic');
  if (!topic && !readHeader(headers, 'x-wc-webhook-signature')) {
    const ping = /^webhook_id=(\d+)$/.exec(text.trim());
    if (ping) return { topic: 'ping', webhookId: Number(ping[1]) };
  }
  if (!(await verifyWebhook(rawBody, headers, secret))) {
    throw new ValidationError('webhook delivery', [
      { path: 'x-wc-webhook-signature', message: 'does not match the body and secret' },
    ]);
  }
  if (!topic?.includes('.')) {
    throw new ValidationError('webhook delivery', [
      { path: 'x-wc-webhook-topic', message: 'missing or not of the form resource.event' },
    ]);
  }
  const [resource, event] = [topic.slice(0, topic.indexOf('.')), topic.slice(topic.indexOf('.') + 1)];
  const schema = event === 'deleted' ? deleted : (payloadSchemas[resource] ?? z.looseObject({}));
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ValidationError('webhook delivery', [{ path: 'body', message: 'is not JSON' }]);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ValidationError(`${topic} payload`, toIssues(parsed.error));
  }
  const webhookId = Number(readHeader(headers, 'x-wc-webhook-id'));
  return {
    topic,
    resource,
    event,
    webhookId: Number.isFinite(webhookId) ? webhookId : undefined,
    deliveryId: readHeader(headers, 'x-wc-webhook-delivery-id'),
    source: readHeader(headers, 'x-wc-webhook-source'),
    payload: parsed.data,
  } as WebhookEvent;
}
