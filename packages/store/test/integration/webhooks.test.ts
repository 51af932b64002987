import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseWebhook, verifyWebhook } from '../../src/index.js';
import { clientFor, type Sandbox, sandbox } from '../helpers/sandbox.js';

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}
let box: Sandbox;
const deliveries: Delivery[] = [];
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    res.writeHead(200).end();
  });
});

beforeAll(async () => {
  box = await sandbox();
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await box.close();
});

async function waitFor(predicate: () => boolean, what: string) {
  for (let i = 0; i < 100 && !predicate(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(predicate(), what).toBe(true);
}

it('subscribes, receives the ping and a signed order.created, verifies and parses it', async () => {
  const store = clientFor(box);
  const secret = 'whsec-test-0123456789';
  const deliveryUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const hook = await store.webhooks.create({
    name: 'orders',
    topic: 'order.created',
    delivery_url: deliveryUrl,
    secret,
  });
  expect(hook).toMatchObject({ topic: 'order.created', status: 'active', delivery_url: deliveryUrl });
  expect((await store.webhooks.list()).data.map((w) => w.id)).toContain(hook.id);

  await waitFor(() => deliveries.length >= 1, 'ping delivered');
  const ping = await parseWebhook(deliveries[0]!.body, deliveries[0]!.headers, secret);
  expect(ping).toEqual({ topic: 'ping', webhookId: hook.id });

  const order = await store.orders.create({ billing: { first_name: 'Hook', email: 'hook@example.com' } });
  await waitFor(() => deliveries.length >= 2, 'order.created delivered');
  const delivery = deliveries[1]!;
  expect(await verifyWebhook(delivery.body, delivery.headers, secret)).toBe(true);
  expect(await verifyWebhook(delivery.body.replace('Hook', 'Hack'), delivery.headers, secret)).toBe(false);
  expect(await verifyWebhook(delivery.body, delivery.headers, 'wrong-secret')).toBe(false);

  const event = await parseWebhook(
    delivery.body,
    new Headers(delivery.headers as Record<string, string>),
    secret,
  );
  expect(event.topic).toBe('order.created');
  if (event.topic !== 'order.created') throw new Error('unreachable');
  expect(event.payload.id).toBe(order.id);
  expect(event.payload.billing.first_name).toBe('Hook');
  expect(event.webhookId).toBe(hook.id);
  await expect(parseWebhook(delivery.body, delivery.headers, 'wrong-secret')).rejects.toThrow(
    /x-wc-webhook-signature/,
  );

  await store.webhooks.update(hook.id, { status: 'paused' });
  await store.webhooks.delete(hook.id);
  expect((await store.webhooks.list()).data.map((w) => w.id)).not.toContain(hook.id);
});
