import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hmacSigner, RealtimeServer, signQuery } from '../../src/server.js';

/** The official server SDK (pusher 5.3.4), for the same inputs, must sign exactly as we do. */
const require = createRequire(import.meta.url);
const Pusher = require('pusher') as new (
  options: object,
) => {
  createSignedQueryString(options: { method: string; path: string; params?: object; body?: string }): string;
  authorizeChannel(socketId: string, channel: string, data?: object): object;
  authenticateUser(socketId: string, user: object): object;
};

const app = { appId: '4242', key: 'app-key-123', secret: 'app-secret-456' };
const official = new Pusher({ ...app, cluster: 'eu', encryptionMasterKeyBase64: 'A'.repeat(43) + '=' });
const ours = new RealtimeServer({ ...app, cluster: 'eu', encryptionMasterKeyBase64: 'A'.repeat(43) + '=' });

afterEach(() => vi.restoreAllMocks());

describe('request signing against pusher 5.3.4', () => {
  const cases = [
    {
      method: 'POST',
      path: '/apps/4242/events',
      body: '{"name":"e","channels":["a"],"data":"{\\"x\\":\\"é ☃\\"}"}',
    },
    { method: 'POST', path: '/apps/4242/batch_events', body: '{"batch":[]}' },
    {
      method: 'GET',
      path: '/apps/4242/channels',
      params: { filter_by_prefix: 'presence-', info: 'user_count' },
    },
    {
      method: 'GET',
      path: '/apps/4242/channels/presence-room',
      params: { info: 'user_count,subscription_count' },
    },
    { method: 'POST', path: '/apps/4242/users/u1/terminate_connections', body: '{}' },
  ];
  for (const c of cases) {
    it(`${c.method} ${c.path}`, async () => {
      vi.spyOn(Date, 'now').mockReturnValue(1_700_000_000_123);
      const theirs = new URLSearchParams(official.createSignedQueryString(c));
      const signed = await signQuery(
        {
          key: app.key,
          method: c.method,
          path: c.path,
          params: Object.entries(c.params ?? {}),
          body: c.body,
          timestamp: 1_700_000_000,
        },
        hmacSigner(app.secret),
      );
      expect(signed.signature).toBe(theirs.get('auth_signature'));
      expect(Object.fromEntries(signed.params)).toEqual(Object.fromEntries(theirs));
    });
  }

  it('signs the request it sends: path, query and exact body, with the timestamp of the attempt', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(1_700_000_000_999);
    let sent: Request | undefined;
    const server = new RealtimeServer({
      ...app,
      host: 'api.example.test',
      coalesce: false,
      fetch: async (input, init) => {
        sent = new Request(input, init);
        return new Response('{}', { headers: { 'content-type': 'application/json' } });
      },
    });
    await server.trigger('ch', 'ev', { a: 1 }, { info: ['subscription_count'] });
    const url = new URL(sent!.url);
    const body = await sent!.text();
    const theirs = new URLSearchParams(
      official.createSignedQueryString({ method: 'POST', path: url.pathname, body }),
    );
    expect(url.pathname).toBe('/apps/4242/events');
    expect(url.searchParams.get('auth_signature')).toBe(theirs.get('auth_signature'));
    expect(url.searchParams.get('auth_timestamp')).toBe('1700000000');
    expect(JSON.parse(body)).toEqual({
      name: 'ev',
      data: '{"a":1}',
      channels: ['ch'],
      info: 'subscription_count',
    });
    // Commas stay unencoded in the URL, as pusher-http-node sends them.
    const get = new RealtimeServer({
      ...app,
      host: 'h.test',
      fetch: async (input, init) => {
        sent = new Request(input, init);
        return Response.json({ occupied: true });
      },
    });
    await get.channels.get('presence-x', { info: ['user_count', 'subscription_count'] });
    expect(sent!.url).toContain('info=user_count,subscription_count');
  });
});

describe('auth helpers against pusher 5.3.4', () => {
  it('gives the same channel authorizations and user authentication', async () => {
    for (const channel of ['private-a', 'private-encrypted-b', 'presence-c']) {
      const data = channel.startsWith('presence-') ? { user_id: 'u1', user_info: { n: 'ü' } } : undefined;
      expect(await ours.authorizeChannel('1.2', channel, data)).toEqual(
        official.authorizeChannel('1.2', channel, data),
      );
    }
    const user = { id: 'u1', user_info: { name: 'Ann' }, watchlist: ['u2'] };
    expect(await ours.authenticateUser('1.2', user)).toEqual(official.authenticateUser('1.2', user));
  });

  it('refuses bad input, naming each field', async () => {
    await expect(ours.authorizeChannel('abc', 'bad channel!')).rejects.toMatchObject({
      name: 'ValidationError',
      issues: [{ path: 'socketId' }, { path: 'channel' }],
    });
    await expect(ours.authorizeChannel('1.2', 'private-x', { user_id: 'u' })).rejects.toThrow(/presenceData/);
    await expect(ours.authorizeChannel('1.2', 'presence-x', { user_id: '' })).rejects.toThrow(/user_id/);
    await expect(ours.authenticateUser('1.2', { id: '' })).rejects.toThrow(/user\.id/);
    const plain = new RealtimeServer({ ...app, cluster: 'eu' });
    await expect(plain.authorizeChannel('1.2', 'private-encrypted-x')).rejects.toThrow(
      /encryptionMasterKeyBase64/,
    );
  });
});

describe('the `#hmac` import map', () => {
  it("in Node the signer is node:crypto's, and it signs exactly as Web Crypto does", async () => {
    const { hexHmac } = await import('#hmac');
    expect(hexHmac).toBeTypeOf('function');
    const secret = 'sécret-✓-7f3a';
    const key = await crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    const sign = hmacSigner(secret);
    for (const text of ['', 'POST\n/apps/1/events\nauth_key=k', 'ünïcödé ✓ 😀', 'x'.repeat(10_000)]) {
      const web = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(text)));
      const hex = [...web].map((b) => b.toString(16).padStart(2, '0')).join('');
      expect(await sign(text)).toBe(hex);
    }
  });
});
