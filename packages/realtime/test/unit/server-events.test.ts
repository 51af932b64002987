import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { BatchError, RealtimeServer, type RealtimeServerOptions, ValidationError } from '../../src/server.js';

interface Call {
  path: string;
  body: any;
}

/** A server whose fetch records calls and answers with `answer` (default 200 `{}`). */
function serverWith(
  options: Partial<RealtimeServerOptions> = {},
  answer: (call: Call) => Response = () => Response.json({}),
) {
  const calls: Call[] = [];
  const server = new RealtimeServer({
    appId: 1,
    key: 'k',
    secret: 's',
    host: 'api.test',
    rateLimit: false,
    ...options,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const text = await request.text();
      const call = { path: new URL(request.url).pathname, body: text ? JSON.parse(text) : undefined };
      calls.push(call);
      return answer(call);
    },
  });
  return { server, calls };
}

describe('trigger input', () => {
  const { server, calls } = serverWith();

  it('refuses bad names, too many channels, a bad socket id and missing data before sending', async () => {
    const error = await server.trigger(['ok', 'bad name'], 'pusher:x', undefined, { socketId: 'x' }).then(
      () => undefined,
      (e) => e as ValidationError,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error?.issues.map((i) => i.path)).toEqual(['channels.1', 'name', 'data', 'socketId']);
    await expect(
      server.trigger(
        Array.from({ length: 101 }, (_, i) => `c${i}`),
        'e',
        {},
      ),
    ).rejects.toThrow(/at most 100 channels/);
    await expect(server.trigger([], 'e', {})).rejects.toThrow(/at least one channel/);
    expect(calls).toEqual([]);
  });

  it('checks the encoded size against maxPayloadBytes', async () => {
    await expect(server.trigger('c', 'e', 'x'.repeat(10_241))).rejects.toThrow(
      /10241 bytes .* maxPayloadBytes 10240/,
    );
    await expect(server.trigger('c', 'e', 'é'.repeat(5_121))).rejects.toThrow(/10242 bytes/);
    const small = serverWith({ maxPayloadBytes: 10 });
    await expect(small.server.trigger(['a', 'b'], 'e', { long: 'value' })).rejects.toThrow(
      /maxPayloadBytes 10/,
    );
    expect(calls).toEqual([]);
  });

  it('refuses several channels when one is encrypted, and encryption without a master key', async () => {
    const keyed = serverWith({ encryptionMasterKeyBase64: btoa('k'.repeat(32)) });
    await expect(keyed.server.trigger(['private-encrypted-a', 'b'], 'e', {})).rejects.toThrow(
      /each encrypted channel has its own key/,
    );
    await expect(server.trigger('private-encrypted-a', 'e', {})).rejects.toThrow(/encryptionMasterKeyBase64/);
  });

  it('encodes data once: objects as JSON, strings as they are', async () => {
    const { server, calls } = serverWith({ coalesce: false });
    await server.trigger('a', 'e', { x: 1 });
    await server.trigger('a', 'e', 'plain text');
    await server.trigger(['a', 'b'], 'e', [1], { socketId: '1.2', info: 'subscription_count' });
    expect(calls.map((c) => c.body)).toEqual([
      { name: 'e', data: '{"x":1}', channels: ['a'] },
      { name: 'e', data: 'plain text', channels: ['a'] },
      { name: 'e', data: '[1]', channels: ['a', 'b'], socket_id: '1.2', info: 'subscription_count' },
    ]);
  });
});

describe('coalescing', () => {
  it('sends the triggers of one tick as batch_events calls of 10, in order', async () => {
    const { server, calls } = serverWith();
    const results = await Promise.all(
      Array.from({ length: 23 }, (_, i) =>
        server.trigger(`c${i}`, 'e', { i }, i === 0 ? { socketId: '1.1' } : {}),
      ),
    );
    expect(results).toEqual(Array(23).fill({}));
    expect(calls.map((c) => c.path)).toEqual([
      '/apps/1/batch_events',
      '/apps/1/batch_events',
      '/apps/1/batch_events',
    ]);
    expect(calls.map((c) => c.body.batch.length)).toEqual([10, 10, 3]);
    expect(calls[0]!.body.batch[0]).toEqual({ channel: 'c0', name: 'e', data: '{"i":0}', socket_id: '1.1' });
    expect(calls.flatMap((c) => c.body.batch.map((e: any) => e.channel))).toEqual(
      Array.from({ length: 23 }, (_, i) => `c${i}`),
    );
  });

  it('sends a lone trigger, several channels, info and request options as they are', async () => {
    const { server, calls } = serverWith();
    await server.trigger('a', 'e', 1);
    await Promise.all([
      server.trigger(['a', 'b'], 'e', 1),
      server.trigger('a', 'e', 1, { info: 'subscription_count' }),
      server.trigger('a', 'e', 1, {}, { timeout: 5_000 }),
    ]);
    expect(calls.map((c) => c.path)).toEqual(Array(4).fill('/apps/1/events'));
  });

  it('is off with coalesce: false', async () => {
    const { server, calls } = serverWith({ coalesce: false });
    await Promise.all([server.trigger('a', 'e', 1), server.trigger('b', 'e', 2)]);
    expect(calls.map((c) => c.path)).toEqual(['/apps/1/events', '/apps/1/events']);
  });

  it('gives each caller its own outcome: a batch refused for one bad event is resent one by one', async () => {
    const { server, calls } = serverWith({}, (call) =>
      call.path.endsWith('/batch_events') || call.body.channels[0] === 'bad'
        ? new Response('Invalid channel\n', { status: 400 })
        : Response.json({}),
    );
    const outcomes = await Promise.allSettled([
      server.trigger('good1', 'e', 1),
      server.trigger('bad', 'e', 1),
      server.trigger('good2', 'e', 1),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(calls.map((c) => c.path.split('/').pop())).toEqual(['batch_events', 'events', 'events', 'events']);
  });

  it('rejects every event of a batch the service failed as a whole (a 500 is not resent: it may have published)', async () => {
    const { server, calls } = serverWith({}, () => new Response('oops', { status: 500 }));
    const outcomes = await Promise.allSettled([server.trigger('a', 'e', 1), server.trigger('b', 'e', 1)]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toHaveLength(1);
  });

  it('rejects only the caller whose event is bad when the tick has a valid one too', async () => {
    const { server, calls } = serverWith();
    const outcomes = await Promise.allSettled([
      server.trigger('a', 'e', 1),
      server.trigger('a', 'e', 'x'.repeat(20_000)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected']);
    expect(calls.map((c) => c.path)).toEqual(['/apps/1/events']);
  });
});

describe('triggerBatch', () => {
  it('splits into calls of 10 and concatenates their results', async () => {
    const { server, calls } = serverWith({}, (call) =>
      Response.json({ batch: call.body.batch.map(() => ({ subscription_count: 1 })) }),
    );
    const events = Array.from({ length: 25 }, (_, i) => ({
      channel: `c${i}`,
      name: 'e',
      data: { i },
      info: 'subscription_count',
    }));
    const result = await server.triggerBatch(events);
    expect(calls.map((c) => c.body.batch.length)).toEqual([10, 10, 5]);
    expect(result.batch).toHaveLength(25);
  });

  it('names the bad event by index, and reports a partial failure as a BatchError', async () => {
    const { server } = serverWith();
    await expect(
      server.triggerBatch([
        { channel: 'a', name: 'e', data: 1 },
        { channel: 'b c', name: 'e', data: 1 },
      ]),
    ).rejects.toThrow(/1\.channel/);
    let n = 0;
    const failing = serverWith({}, () =>
      n++ === 1 ? new Response('Forbidden', { status: 403 }) : Response.json({}),
    );
    const events = Array.from({ length: 25 }, (_, i) => ({ channel: `c${i}`, name: 'e', data: i }));
    const error = await failing.server.triggerBatch(events).catch((e) => e);
    expect(error).toBeInstanceOf(BatchError);
    expect(error.message).toMatch(/events 10\.\.19 failed .*events 0\.\.9 were published/);
    expect(failing.calls).toHaveLength(2);
  });
});

describe('sendToUser and encrypted channels', () => {
  it('sends to #server-to-user-{id} as-is', async () => {
    const { server, calls } = serverWith();
    await Promise.all([server.sendToUser('u1', 'hello', { a: 1 }), server.sendToUser('u2', 'hello', 'x')]);
    // Two separate requests in flight at once: they may arrive in either order.
    const bodies = calls.map((c) => c.body).sort((a, b) => a.channels[0].localeCompare(b.channels[0]));
    expect(bodies).toEqual([
      { name: 'hello', data: '{"a":1}', channels: ['#server-to-user-u1'] },
      { name: 'hello', data: 'x', channels: ['#server-to-user-u2'] },
    ]);
    await expect(server.sendToUser('', 'e', 1)).rejects.toThrow(/userId/);
  });

  it('encrypts with secretbox under the channel key, readable by tweetnacl (what pusher-js uses)', async () => {
    const masterKey = new Uint8Array(32).map((_, i) => i);
    const { server, calls } = serverWith({
      encryptionMasterKeyBase64: btoa(String.fromCharCode(...masterKey)),
    });
    await Promise.all([
      server.trigger('private-encrypted-x', 'e', { secret: 'ü' }),
      server.trigger('public', 'e', 1),
    ]);
    // Encryption is async, so the two triggers may reach the queue in either order.
    const event = calls
      .flatMap((c) => c.body.batch ?? [{ ...c.body, channel: c.body.channels?.[0] }])
      .find((e: { channel: string }) => e.channel === 'private-encrypted-x');
    const { nonce, ciphertext } = JSON.parse(event.data);
    const require = createRequire(createRequire(import.meta.url).resolve('pusher'));
    const nacl = require('tweetnacl');
    const key = new Uint8Array(
      await crypto.subtle.digest(
        'SHA-256',
        new Uint8Array([...new TextEncoder().encode('private-encrypted-x'), ...masterKey]),
      ),
    );
    const plain = nacl.secretbox.open(Buffer.from(ciphertext, 'base64'), Buffer.from(nonce, 'base64'), key);
    expect(JSON.parse(new TextDecoder().decode(plain))).toEqual({ secret: 'ü' });
    expect(Buffer.from(nonce, 'base64')).toHaveLength(24);
  });
});
