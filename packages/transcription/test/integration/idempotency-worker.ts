/**
 * One separate Node process for idempotency.test.ts (`node --import tsx`, forked with an IPC channel):
 * a TranscriptionClient whose keys live in Redis. Environment: SANDBOX_URL, SANDBOX_API_KEY, REDIS_URL,
 * optionally IDEMPOTENCY_LEASE_MS.
 * Sends { type: 'ready' } once Redis answers; on { type: 'submit', key, audio_url } it submits with that
 * idempotencyKey and replies { type: 'submitted', id } or { type: 'failed', name, message }; on
 * { type: 'exit' } it closes Redis and disconnects.
 */
import { createRequire } from 'node:module';
import { RedisIdempotencyStore } from '@x/core/redis';
import { TranscriptionClient } from '../../src/index.js';

// ioredis is @x/core's (optional peer, dev) dependency, not this package's: load it from there.
type RedisClient = ConstructorParameters<typeof RedisIdempotencyStore>[0]['redis'] & {
  ping(): Promise<string>;
  disconnect(): void;
};
const { Redis } = createRequire(new URL('../../../core/package.json', import.meta.url))('ioredis') as {
  Redis: new (url: string) => RedisClient;
};
const redis = new Redis(process.env.REDIS_URL!);
const client = new TranscriptionClient({
  apiKey: process.env.SANDBOX_API_KEY!,
  baseUrl: process.env.SANDBOX_URL!,
  rateLimit: false,
  logLevel: 'off',
  idempotency: {
    store: new RedisIdempotencyStore({ redis }),
    leaseMs: process.env.IDEMPOTENCY_LEASE_MS ? Number(process.env.IDEMPOTENCY_LEASE_MS) : undefined,
  },
});

process.on('message', async (message: { type: string; key?: string; audio_url?: string }) => {
  if (message.type === 'exit') {
    redis.disconnect();
    process.disconnect?.();
    return;
  }
  try {
    const t = await client.transcripts.submit(
      { audio_url: message.audio_url!, speech_models: ['universal-2'] },
      { idempotencyKey: message.key! },
    );
    process.send?.({ type: 'submitted', id: t.id });
  } catch (error) {
    process.send?.({ type: 'failed', name: (error as Error).name, message: (error as Error).message });
  }
});

await redis.ping();
process.send?.({ type: 'ready' });
