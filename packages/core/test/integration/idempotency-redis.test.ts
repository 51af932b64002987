/**
 * `runIdempotent` over a real redis-server (and over the memory store, the same decisions): concurrent
 * callers of one key send once and all answer its id; a key reused with other parameters is refused
 * before sending; an unsent failure frees the key, an unknown one makes the next caller recover first
 * (adopt one match, refuse several, send when none); a dead store fails typed with nothing sent.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AbortError,
  ConnectionError,
  canonicalJson,
  IdempotencyAmbiguousError,
  IdempotencyConflictError,
  type IdempotencyRecord,
  type IdempotencyStore,
  IdempotencyStoreError,
  MemoryIdempotencyStore,
  runIdempotent,
  sha256Hex,
  ValidationError,
} from '../../src/index.js';
import { RedisIdempotencyStore } from '../../src/redis.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';

let redisServer: RedisServer;
let redis: Redis;
let keyCounter = 0;

beforeAll(async () => {
  redisServer = await startRedisServer();
  redis = new Redis(redisServer.url);
}, 30_000);
afterAll(async () => {
  redis?.disconnect();
  await redisServer?.close();
});

/** A fake service in this process: counts what was sent, and what recovery would see. */
function service() {
  const jobs: { id: string; sent: string }[] = [];
  return {
    jobs,
    send: (sent: string) => async () => {
      const id = `job-${jobs.length + 1}`;
      jobs.push({ id, sent });
      // A turn of the event loop, so concurrent callers really overlap.
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { id, value: id };
    },
    recover: async (record: IdempotencyRecord) =>
      jobs.filter((j) => record.sent.includes(j.sent)).map((j) => j.id),
    fetch: async (id: string) => id,
  };
}

const stores: [string, () => IdempotencyStore][] = [
  ['memory', () => new MemoryIdempotencyStore()],
  ['redis', () => new RedisIdempotencyStore({ redis })],
];

describe.each(stores)('runIdempotent over the %s store', (_name, makeStore) => {
  it('10 concurrent callers of one key: one send, everyone answers its id', async () => {
    const store = makeStore();
    const svc = service();
    const key = `order-${++keyCounter}`;
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        runIdempotent({ store, key, fingerprint: { a: 1 }, sent: 'u1', ...svc, send: svc.send('u1') }),
      ),
    );
    expect(svc.jobs).toHaveLength(1);
    expect(new Set(results)).toEqual(new Set(['job-1']));
  });

  it('the same key with other parameters is a conflict, and nothing is sent', async () => {
    const store = makeStore();
    const svc = service();
    const key = `order-${++keyCounter}`;
    await runIdempotent({
      store,
      key,
      fingerprint: { a: 1, b: [1, 2] },
      sent: 'u',
      ...svc,
      send: svc.send('u'),
    });
    // Key order does not matter; values do.
    await expect(
      runIdempotent({ store, key, fingerprint: { b: [1, 2], a: 1 }, sent: 'u', ...svc, send: svc.send('u') }),
    ).resolves.toBe('job-1');
    const error = await runIdempotent({
      store,
      key,
      fingerprint: { a: 2 },
      sent: 'u',
      ...svc,
      send: svc.send('u'),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdempotencyConflictError);
    expect(String((error as Error).message)).not.toContain(key);
    expect((error as IdempotencyConflictError).keyHash).toBe((await sha256Hex(key)).slice(0, 16));
    expect(svc.jobs).toHaveLength(1);
  });

  it('a provably unsent failure frees the key: the retry sends', async () => {
    const store = makeStore();
    const svc = service();
    const key = `order-${++keyCounter}`;
    const refused = () => Promise.reject(new ValidationError('x', [{ path: 'p', message: 'bad' }]));
    await expect(
      runIdempotent({ store, key, fingerprint: 1, sent: 'u', ...svc, send: refused }),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(await store.get(await sha256Hex(key))).toBeUndefined();
    await expect(
      runIdempotent({ store, key, fingerprint: 1, sent: 'u', ...svc, send: svc.send('u') }),
    ).resolves.toBe('job-1');
  });

  it('an unknown outcome: the retry recovers the one job that arrived instead of sending again', async () => {
    const store = makeStore();
    const svc = service();
    const key = `order-${++keyCounter}`;
    const dropped = async () => {
      await svc.send('u')();
      throw new ConnectionError('socket hang up');
    };
    await expect(
      runIdempotent({ store, key, fingerprint: 1, sent: 'u', ...svc, send: dropped }),
    ).rejects.toBeInstanceOf(ConnectionError);
    await expect(
      runIdempotent({ store, key, fingerprint: 1, sent: 'u', ...svc, send: svc.send('u') }),
    ).resolves.toBe('job-1');
    expect(svc.jobs).toHaveLength(1);
    // Done now: a third call fetches without recovering or sending.
    await expect(
      runIdempotent({ store, key, fingerprint: 1, sent: 'u', ...svc, send: svc.send('u') }),
    ).resolves.toBe('job-1');
    expect(svc.jobs).toHaveLength(1);
  });

  it('an unknown outcome that never arrived: recovery finds nothing and the retry sends once', async () => {
    const store = makeStore();
    const svc = service();
    const key = `order-${++keyCounter}`;
    const lost = () => Promise.reject(new ConnectionError('timed out'));
    await expect(
      runIdempotent({ store, key, fingerprint: 1, sent: 'v', ...svc, send: lost }),
    ).rejects.toThrow();
    await expect(
      runIdempotent({ store, key, fingerprint: 1, sent: 'v', ...svc, send: svc.send('v') }),
    ).resolves.toBe('job-1');
    expect(svc.jobs).toHaveLength(1);
  });

  it('an owner that died: a waiter waits out its lease, takes over, and adopts the job it sent', async () => {
    const store = makeStore();
    const svc = service();
    const key = `order-${++keyCounter}`;
    const fingerprint = await sha256Hex(canonicalJson(1));
    await store.reserve(await sha256Hex(key), {
      owner: 'dead',
      fingerprint,
      sent: 'd',
      leaseMs: 300,
      ttlMs: 60_000,
    });
    await svc.send('d')();
    await expect(
      runIdempotent({ store, key, fingerprint: 1, sent: 'd', ...svc, send: svc.send('d') }),
    ).resolves.toBe('job-1');
    expect(svc.jobs).toHaveLength(1);
  });

  it('a waiter aborted while the key is pending: AbortError, nothing sent, the owner unaffected', async () => {
    const store = makeStore();
    const svc = service();
    const key = `order-${++keyCounter}`;
    const fingerprint = await sha256Hex(canonicalJson(1));
    const keyHash = await sha256Hex(key);
    await store.reserve(keyHash, { owner: 'alive', fingerprint, sent: 'e', leaseMs: 60_000, ttlMs: 60_000 });
    const signal = AbortSignal.timeout(200);
    await expect(
      runIdempotent({ store, key, fingerprint: 1, sent: 'e', signal, ...svc, send: svc.send('e') }),
    ).rejects.toBeInstanceOf(AbortError);
    expect(svc.jobs).toHaveLength(0);
    expect((await store.get(keyHash))?.owner).toBe('alive');
  });

  it('several matches: IdempotencyAmbiguousError names them, nothing more is sent', async () => {
    const store = makeStore();
    const svc = service();
    const key = `order-${++keyCounter}`;
    await svc.send('w')();
    const dropped = async () => {
      await svc.send('w')();
      throw new ConnectionError('socket hang up');
    };
    await expect(
      runIdempotent({ store, key, fingerprint: 1, sent: 'w', ...svc, send: dropped }),
    ).rejects.toThrow();
    const error = await runIdempotent({
      store,
      key,
      fingerprint: 1,
      sent: 'w',
      ...svc,
      send: svc.send('w'),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdempotencyAmbiguousError);
    expect((error as IdempotencyAmbiguousError).candidates).toEqual(['job-1', 'job-2']);
    expect(svc.jobs).toHaveLength(2);
  });
});

describe('RedisIdempotencyStore when Redis fails', () => {
  it('a dead store: IdempotencyStoreError naming the store, not the key, and nothing is sent', async () => {
    const dead = new Redis({
      port: 1,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    // ioredis reports the refused connection as an event too; the rejected command is what this test reads.
    dead.on('error', () => {});
    const store = new RedisIdempotencyStore({ redis: dead, storeTimeoutMs: 2000 });
    const svc = service();
    const error = await runIdempotent({
      store,
      key: 'alice@example.com',
      fingerprint: 1,
      sent: 'u',
      ...svc,
      send: svc.send('u'),
    }).catch((e: unknown) => e);
    dead.disconnect();
    expect(error).toBeInstanceOf(IdempotencyStoreError);
    expect((error as IdempotencyStoreError).store).toBe('redis://localhost:1');
    expect(JSON.stringify(error)).not.toContain('alice');
    expect((error as Error).message).not.toContain('alice');
    expect(svc.jobs).toHaveLength(0);
  });

  it('stores only the hash of the key, with a time to live', async () => {
    const store = new RedisIdempotencyStore({ redis });
    const svc = service();
    const key = 'bob@example.com';
    await runIdempotent({
      store,
      key,
      fingerprint: 1,
      sent: 'u',
      ttlMs: 60_000,
      ...svc,
      send: svc.send('u'),
    });
    const keys = await redis.keys('x-sdk:idempotency:*');
    expect(keys.some((k) => k.includes('bob'))).toBe(false);
    const redisKey = store.redisKey(await sha256Hex(key));
    expect(keys).toContain(redisKey);
    const ttl = await redis.pttl(redisKey);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });
});
