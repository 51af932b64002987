import { createHmac } from 'node:crypto';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  RealtimeServer,
  ValidationError,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from '../../src/server.js';

const sign = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');
const NOW = 1_700_000_000_000;

function hook(events: object[], secret = 'secret-1', key = 'key-1', time = NOW) {
  const body = JSON.stringify({ time_ms: time, events });
  return { body, headers: { 'x-pusher-key': key, 'x-pusher-signature': sign(secret, body) } };
}

describe('verifyWebhook', () => {
  const tokens = [
    { key: 'key-1', secret: 'secret-1' },
    { key: 'key-2', secret: 'secret-2' },
  ];

  it('returns typed events, unknown kinds kept apart', async () => {
    const { body, headers } = hook([
      { name: 'member_added', channel: 'presence-a', user_id: 'u1' },
      { name: 'client_event', channel: 'private-a', event: 'client-x', data: { a: 1 }, socket_id: '1.2' },
      { name: 'subscription_count', channel: 'a', subscription_count: 3 },
      { name: 'something_new', channel: 'a' },
    ]);
    const payload = await verifyWebhook(body, new Headers(headers), { tokens });
    expect(payload.time_ms).toBe(NOW);
    expect(payload.events.map((e) => e.name)).toEqual(['member_added', 'client_event', 'subscription_count']);
    expect(payload.unrecognized).toEqual([{ name: 'something_new', channel: 'a' }]);
    const event = payload.events[0]!;
    if (event.name === 'member_added') expectTypeOf(event.user_id).toEqualTypeOf<string>();
    expectTypeOf<WebhookEvent['name']>().toEqualTypeOf<
      | 'channel_occupied'
      | 'channel_vacated'
      | 'member_added'
      | 'member_removed'
      | 'client_event'
      | 'cache_miss'
      | 'subscription_count'
    >();
  });

  it('accepts any of several tokens, and raw bytes', async () => {
    const { body, headers } = hook([{ name: 'channel_vacated', channel: 'a' }], 'secret-2', 'key-2');
    await expect(verifyWebhook(new TextEncoder().encode(body), headers, { tokens })).resolves.toMatchObject({
      events: [{ name: 'channel_vacated' }],
    });
  });

  it('refuses an unknown key, a wrong signature, a missing header, and a tampered body', async () => {
    const reason = (promise: Promise<unknown>) =>
      promise.then(
        () => 'verified',
        (e) => (e instanceof WebhookVerificationError ? e.reason : String(e)),
      );
    const { body, headers } = hook([{ name: 'channel_occupied', channel: 'a' }]);
    expect(await reason(verifyWebhook(body, { ...headers, 'x-pusher-key': 'other' }, { tokens }))).toBe(
      'unknown_key',
    );
    expect(await reason(verifyWebhook(body, { 'x-pusher-signature': 'ab' }, { tokens }))).toBe('unknown_key');
    expect(await reason(verifyWebhook(`${body} `, headers, { tokens }))).toBe('bad_signature');
    const wrongSecret = hook([{ name: 'channel_occupied', channel: 'a' }], 'secret-2', 'key-1');
    expect(await reason(verifyWebhook(wrongSecret.body, wrongSecret.headers, { tokens }))).toBe(
      'bad_signature',
    );
    expect(await reason(verifyWebhook(body, { 'x-pusher-key': 'key-1' }, { tokens }))).toBe('bad_signature');
    const notJson = 'not json';
    expect(
      await reason(
        verifyWebhook(
          notJson,
          { 'x-pusher-key': 'key-1', 'x-pusher-signature': sign('secret-1', notJson) },
          { tokens },
        ),
      ),
    ).toBe('malformed');
    await expect(verifyWebhook({} as unknown as string, headers, { tokens })).rejects.toThrow(/raw body/);
  });

  it('checks freshness only when maxAgeMs is given', async () => {
    const old = hook([{ name: 'channel_occupied', channel: 'a' }], 'secret-1', 'key-1', NOW - 10 * 60_000);
    const now = () => NOW;
    await expect(verifyWebhook(old.body, old.headers, { tokens, now })).resolves.toBeDefined();
    await expect(
      verifyWebhook(old.body, old.headers, { tokens, now, maxAgeMs: 5 * 60_000 }),
    ).rejects.toMatchObject({
      reason: 'stale',
    });
    await expect(
      verifyWebhook(old.body, old.headers, { tokens, now, maxAgeMs: 11 * 60_000 }),
    ).resolves.toBeDefined();
  });

  it('is on the server instance with its own key and secret', async () => {
    const server = new RealtimeServer({ appId: 1, key: 'key-1', secret: 'secret-1', cluster: 'eu' });
    const { body, headers } = hook([{ name: 'cache_miss', channel: 'cache-a' }]);
    await expect(server.verifyWebhook(body, headers)).resolves.toMatchObject({
      events: [{ name: 'cache_miss' }],
    });
  });
});

describe('RealtimeServer options', () => {
  it('names each bad field', () => {
    const error = (() => {
      try {
        new RealtimeServer({
          appId: 'abc',
          key: '',
          secret: ' ',
          host: 'https://api.example.com/x',
          port: 70_000,
          maxPayloadBytes: -1,
          encryptionMasterKeyBase64: btoa('short'),
        });
      } catch (e) {
        return e as ValidationError;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect(error?.issues.map((i) => i.path)).toEqual([
      'appId',
      'key',
      'secret',
      'host',
      'port',
      'maxPayloadBytes',
      'encryptionMasterKeyBase64',
    ]);
    expect(() => new RealtimeServer({ appId: 1, key: 'k', secret: 's' })).toThrow(/cluster: is required/);
    expect(() => new RealtimeServer({ appId: 1, key: 'k', secret: 's', cluster: 'eu', host: 'h' })).toThrow(
      /not both/,
    );
  });

  it('builds the base URL from cluster or host, TLS by default', () => {
    expect(new RealtimeServer({ appId: 1, key: 'k', secret: 's', cluster: 'eu' }).baseURL).toBe(
      'https://api-eu.pusher.com',
    );
    expect(
      new RealtimeServer({ appId: 1, key: 'k', secret: 's', host: 'localhost', port: 8080, useTLS: false })
        .baseURL,
    ).toBe('http://localhost:8080');
  });

  it('never shows the secret or the master key', async () => {
    const masterKey = btoa('m'.repeat(32));
    const server = new RealtimeServer({
      appId: 1,
      key: 'k',
      secret: 'the-secret-value',
      cluster: 'eu',
      encryptionMasterKeyBase64: masterKey,
    });
    const shown = JSON.stringify(server);
    expect(shown).not.toContain('the-secret-value');
    expect(shown).not.toContain(masterKey);
    expect(server.redact('x the-secret-value y')).not.toContain('the-secret-value');
  });
});
