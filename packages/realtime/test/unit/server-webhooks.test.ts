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

  it('refuses a signed body nested too deep as malformed, before parsing it', async () => {
    const event = (data: string) =>
      `{"time_ms":${NOW},"events":[{"name":"client_event","channel":"private-a","event":"client-x","socket_id":"1.2","data":${data}}]}`;
    const signed = (body: string) => ({
      'x-pusher-key': 'key-1',
      'x-pusher-signature': sign('secret-1', body),
    });
    for (const data of [
      '['.repeat(8_000) + ']'.repeat(8_000),
      '{"a":'.repeat(8_000) + '1' + '}'.repeat(8_000),
    ]) {
      const body = event(data);
      await expect(verifyWebhook(body, signed(body), { tokens })).rejects.toMatchObject({
        reason: 'malformed',
        message: expect.stringMatching(/nests deeper than 103 levels/),
      });
    }
    // Client data 100 levels deep (the object and 99 arrays) still verifies; brackets inside strings do not count.
    const fine = event(`{"s":"${'['.repeat(500)}","d":${'['.repeat(99)}${']'.repeat(99)}}`);
    await expect(verifyWebhook(fine, signed(fine), { tokens })).resolves.toMatchObject({
      events: [{ name: 'client_event' }],
    });
  });

  it('keeps a key named __proto__ as a key, and says which field is wrong', async () => {
    const signed = (body: string) => ({
      'x-pusher-key': 'key-1',
      'x-pusher-signature': sign('secret-1', body),
    });
    const body = `{"time_ms":${NOW},"events":[{"name":"channel_occupied","channel":"a","__proto__":{"polluted":1}},{"name":"new_kind","__proto__":[1]}]}`;
    const payload = await verifyWebhook(body, signed(body), { tokens });
    const [known] = payload.events;
    expect(Object.hasOwn(known!, '__proto__')).toBe(true);
    expect((known as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(payload.unrecognized[0]!, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const messages: [string, RegExp][] = [
      [
        `{"time_ms":${NOW},"events":[{"__proto__":{"name":"channel_occupied","channel":"a"}}]}`,
        /events\[0\] is not an object with a string name/,
      ],
      [`{"__proto__":{"time_ms":${NOW},"events":[]}}`, /time_ms is not a number/],
      [`{"time_ms":${NOW},"__proto__":{"events":[]}}`, /events is not an array/],
      ['[1]', /is not a JSON object/],
    ];
    for (const [text, message] of messages) {
      await expect(verifyWebhook(text, signed(text), { tokens })).rejects.toMatchObject({
        reason: 'malformed',
        message: expect.stringMatching(message),
      });
    }
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
          appId: 'apps/1',
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
      'maxPayloadBytes', // -1: a type issue (a number >= 0), and those come first
      'host',
      'port',
      'encryptionMasterKeyBase64',
    ]);
    expect(() => new RealtimeServer({ appId: 1, key: 'k', secret: 's' })).toThrow(/cluster: is required/);
    expect(() => new RealtimeServer({ appId: 1, key: 'k', secret: 's', cluster: 'eu', host: 'h' })).toThrow(
      /not both/,
    );
  });

  it('says which type an option got', () => {
    const issues = (options: Record<string, unknown>) => {
      try {
        new RealtimeServer({ appId: 1, key: 'k', secret: 's', ...options } as never);
      } catch (e) {
        return (e as ValidationError).issues;
      }
    };
    expect(issues({ host: 'localhost', port: '8787' })).toEqual([
      { path: 'port', message: 'expected a number >= 0, received a string ("8787")' },
    ]);
    expect(
      issues({ cluster: 'eu', useTLS: 'false', coalesce: 1, maxPayloadBytes: '10' })?.map((i) => i.message),
    ).toEqual([
      'expected a boolean, received a string ("false")',
      'expected a number >= 0, received a string ("10")',
      'expected a boolean, received a number',
    ]);
    expect(issues({ host: 8787 })).toEqual([
      { path: 'host', message: 'expected a string, received a number' },
    ]);
    expect(issues({ cluster: 'eu', port: 70_000 })).toEqual([
      { path: 'port', message: 'must be an integer 1..65535, received 70000' },
    ]);
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
