import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Desk, startDesk } from '../helpers/desk.js';

let desk: Desk;
beforeAll(async () => {
  desk = await startDesk({ staticDir: undefined });
});
afterAll(() => desk?.close());

const api = (path: string, init?: RequestInit) => fetch(`${desk.server.url}${path}`, init);

describe('the app server API', () => {
  it('gives the page its settings and never a secret', async () => {
    const res = await api('/api/config');
    expect(res.status).toBe(200);
    const text = await res.text();
    const body = JSON.parse(text);
    expect(body.channel).toBe('private-support-desk');
    expect(body.realtime.key).toBe(desk.config.realtime.key);
    for (const secret of [
      desk.config.realtime.secret,
      desk.config.store.consumerSecret,
      desk.config.store.webhookSecret,
      desk.config.transcription.apiKey,
      desk.config.transcription.webhookSecret,
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('lists recent orders and customers from the store, newest first, without addresses', async () => {
    const { orders } = await (await api('/api/orders?limit=3')).json();
    expect(orders.map((o: { number: string }) => o.number)).toEqual(['92', '91', '90']);
    expect(Object.keys(orders[0]).sort()).toEqual(
      [
        'currency',
        'customerId',
        'customerName',
        'dateCreated',
        'email',
        'id',
        'items',
        'number',
        'status',
        'total',
      ].sort(),
    );
    const { customers } = await (await api('/api/customers')).json();
    expect(customers).toHaveLength(8);
  });

  it('answers invalid input with a JSON error naming the field', async () => {
    const res = await api('/api/orders?limit=500');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        message: 'invalid query: limit: expected a number from 1 to 50',
        status: 400,
        code: 'invalid_input',
        issues: [{ path: 'limit', message: 'expected a number from 1 to 50' }],
      },
    });
    const sample = await api('/api/calls/sample', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ orderId: -1, mood: 'angry', extra: 1 }),
    });
    expect(sample.status).toBe(400);
    const { error } = await sample.json();
    expect(error.issues.map((i: { path: string }) => i.path).sort()).toEqual(['(root)', 'mood', 'orderId']);
  });

  it('refuses uploads that are not audio, are empty, or lack a name', async () => {
    const text = await api('/api/calls?name=a.txt', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: 'hi',
    });
    expect(text.status).toBe(415);
    expect((await text.json()).error.code).toBe('not_audio');
    const empty = await api('/api/calls?name=a.wav', {
      method: 'POST',
      headers: { 'Content-Type': 'audio/wav' },
      body: '',
    });
    expect(empty.status).toBe(400);
    const unnamed = await api('/api/calls', {
      method: 'POST',
      headers: { 'Content-Type': 'audio/wav' },
      body: 'x',
    });
    expect(unnamed.status).toBe(400);
  });

  it('answers a store error as a 502 with the store’s message', async () => {
    const res = await api('/api/calls/sample', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ orderId: 999_999 }),
    });
    // Without a speech tool the server says so first; with one, the store's 404 comes through.
    const body = await res.json();
    if (res.status === 503) expect(body.error.code).toBe('speech_unavailable');
    else {
      expect(res.status).toBe(502);
      expect(body.error.message).toContain('404');
    }
  });

  it('authorises only the desk channel for realtime', async () => {
    const form = (channel: string, socket = '123.456') =>
      api('/api/realtime/auth', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ socket_id: socket, channel_name: channel }).toString(),
      });
    const ok = await form('private-support-desk');
    expect(ok.status).toBe(200);
    expect((await ok.json()).auth).toMatch(new RegExp(`^${desk.config.realtime.key}:[0-9a-f]{64}$`));
    expect((await form('private-other')).status).toBe(403);
    expect((await form('private-support-desk', 'nope')).status).toBe(400);
  });

  it('refuses webhooks that do not verify', async () => {
    const store = await api('/api/webhooks/store', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-WC-Webhook-Topic': 'order.created',
        'X-WC-Webhook-Signature': 'AAAA',
      },
      body: '{"id":1}',
    });
    expect(store.status).toBe(401);
    expect((await store.json()).error.code).toBe('invalid_webhook');
    const transcription = await api('/api/webhooks/transcription', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Support-Desk-Webhook': 'wrong' },
      body: '{"transcript_id":"x","status":"completed"}',
    });
    expect(transcription.status).toBe(401);
    const unknown = await api('/api/webhooks/transcription', {
      method: 'POST',
      headers: { 'X-Support-Desk-Webhook': desk.config.transcription.webhookSecret },
      body: '{"transcript_id":"not-ours","status":"completed"}',
    });
    expect(unknown.status).toBe(200);
  });

  it('answers unknown API routes and calls with JSON 404s', async () => {
    const route = await api('/api/nope');
    expect(route.status).toBe(404);
    expect((await route.json()).error.message).toBe('no route GET /api/nope');
    const call = await api('/api/calls/00000000-0000-0000-0000-000000000000');
    expect(call.status).toBe(404);
  });
});
