/**
 * How `RealtimeServer` meets the sandbox realtime emulator's refusals over real sockets: oversize payloads
 * (its own check first, then the emulator's 413), a wrong secret (401), and the HTTP API rate limit (429).
 * The emulator's request counters show what reached it; a raw `ws` subscriber shows what was published.
 */
import { describe, expect, it } from 'vitest';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  RateLimitError,
  ValidationError,
} from '../../src/server.js';
import type { RawSocket, RealtimeBox } from '../helpers/sandbox.js';
import { serverSandbox } from '../helpers/sandbox-hooks.js';

const { box, server } = serverSandbox();
/** An emulator that takes 3 HTTP API requests a second per app. */
const { box: limited } = serverSandbox({ httpRateLimit: { limit: 3, intervalMs: 1000 } });

async function subscriber(target: RealtimeBox, channel: string): Promise<RawSocket> {
  const socket = await target.connect();
  expect((await socket.subscribe(channel)).event).toBe('pusher_internal:subscription_succeeded');
  return socket;
}

describe('payload size', () => {
  it('refuses data over 10 240 bytes before sending: no request reaches the emulator', async () => {
    const before = box.requests();
    const big = 'x'.repeat(10_241);
    await expect(server.trigger('size', 'e', big)).rejects.toBeInstanceOf(ValidationError);
    await expect(server.trigger(['size', 'size-2'], 'e', big)).rejects.toThrow(/maxPayloadBytes 10240/);
    await expect(server.triggerBatch([{ channel: 'size', name: 'e', data: big }])).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(server.sendToUser('u1', 'e', big)).rejects.toBeInstanceOf(ValidationError);
    expect(box.requests()).toBe(before);
    // Exactly at the limit is sent, and delivered.
    const socket = await subscriber(box, 'size');
    await server.trigger('size', 'fits', 'y'.repeat(10_240));
    expect((await socket.next('fits')).rawData).toHaveLength(10_240);
  });

  it('with the client limit raised, the emulator answers 413, surfaced with its code and hint', async () => {
    const lax = box.server({ maxPayloadBytes: 50_000 });
    const error = await lax.trigger('size', 'e', 'x'.repeat(20_000)).catch((e: unknown) => e as APIError);
    expect(error).toBeInstanceOf(APIError);
    expect(error.status).toBe(413);
    expect(error.code).toBe('payload_too_large');
    expect(error.message).toMatch(/^413 .*data is 20000 bytes; the limit is 10240/);
    expect(error.message).toMatch(/split it, or send a reference/);
  });

  it('a coalesced batch spoiled by one oversize event: the others are published exactly once', async () => {
    const socket = await subscriber(box, 'spoiled');
    const lax = box.server({ maxPayloadBytes: 50_000 });
    const before = box.requests();
    const outcomes = await Promise.allSettled([
      lax.trigger('spoiled', 'ok', 1),
      lax.trigger('spoiled', 'too-big', 'x'.repeat(20_000)),
      lax.trigger('spoiled', 'ok', 2),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ status: 413 });
    // One batch (refused whole), then each event alone.
    expect(box.requests() - before).toBe(4);
    await server.trigger('spoiled', 'marker', 0);
    await socket.next('marker');
    expect(socket.events('ok').map((f) => f.data)).toEqual([1, 2]);
    expect(socket.events('too-big')).toEqual([]);
  });
});

describe('authentication', () => {
  it('a wrong secret: the emulator’s 401 surfaces as AuthenticationError with the hint, no secret shown', async () => {
    const wrong = box.server({ secret: 'not-the-secret' });
    const before = box.requests();
    const error = await wrong.trigger('a', 'e', 1).catch((e: unknown) => e as APIError);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/^401 Invalid signature: you should have sent HmacSHA256Hex\(/);
    expect(error.message).toMatch(/\(check key and secret: .*600 s.*NTP\)/);
    expect(error.message).not.toContain('not-the-secret');
    expect(JSON.stringify(error)).not.toContain('not-the-secret');
    // A 401 is final: one request, no retry.
    expect(box.requests() - before).toBe(1);
    await expect(wrong.channels.list()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('a key of no app of this id is refused too', async () => {
    await expect(box.server({ key: 'stolen-key' }).channels.get('a')).rejects.toMatchObject({
      status: 401,
      message: expect.stringMatching(/Unknown auth_key/),
    });
  });

  it('invalid input the SDK cannot know about comes back as BadRequestError', async () => {
    // The emulator refuses info attributes it does not know; the SDK passes open strings through.
    await expect(server.channels.get('a', { info: 'colour' })).rejects.toBeInstanceOf(BadRequestError);
  });
});

describe('rate limit (429 with Retry-After)', () => {
  it('retries refused calls after Retry-After: every event published exactly once', async () => {
    const socket = await subscriber(limited, 'busy');
    const realtime = limited.server({ coalesce: false });
    const statsBefore = limited.rt.stats().http;
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => realtime.trigger('busy', 'n', i)));
    expect(results).toEqual(Array(6).fill({}));
    const stats = limited.rt.stats().http;
    const refusedCount = stats.rateLimited - statsBefore.rateLimited;
    expect(refusedCount).toBeGreaterThanOrEqual(1);
    // Every request the emulator saw was either accepted (one per event) or refused with 429.
    expect(stats.requests - statsBefore.requests).toBe(6 + refusedCount);
    const got = await socket.waitForEvents('n', 6);
    expect(got.map((f) => f.data).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    // The accepted arrivals respect the window: never more than 3 in any second.
    const arrivals = stats.arrivals.slice(-6);
    for (let i = 3; i < arrivals.length; i++) {
      expect(arrivals[i]! - arrivals[i - 3]!).toBeGreaterThanOrEqual(1000 - 5);
    }
  });

  it('without retries the 429 surfaces as RateLimitError with retryAfterMs, and nothing was published', async () => {
    // Wait out the window the previous test filled, so this one starts from a known state.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const socket = await subscriber(limited, 'strict');
    const realtime = limited.server({ coalesce: false, maxRetries: 0, rateLimit: false });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) => realtime.trigger('strict', 'n', i)),
    );
    const rejected = outcomes.filter((o) => o.status === 'rejected') as PromiseRejectedResult[];
    expect(rejected).toHaveLength(2);
    for (const { reason } of rejected) {
      expect(reason).toBeInstanceOf(RateLimitError);
      expect(reason.status).toBe(429);
      expect(reason.retryAfterMs).toBeGreaterThan(0);
      expect(reason.retryAfterMs).toBeLessThanOrEqual(1000);
    }
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await limited.server().trigger('strict', 'marker', 0);
    await socket.next('marker');
    const published = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [i] : []));
    expect(
      socket
        .events('n')
        .map((f) => f.data)
        .sort(),
    ).toEqual(published);
  });
});
