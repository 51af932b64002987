/**
 * The client's limits against the emulator's: the service's window with `X-RateLimit-*` and 429, its
 * per-key job concurrency (`throttled`), and the client's own cap on jobs in flight. Invariants only:
 * never more than `limit` requests in any window, no job throttled when the client caps below the service.
 */
import { synthesizeSpeech } from '@x/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimitError, type TranscriptionClient } from '../../src/index.js';
import { clientFor, sandbox } from '../helpers/sandbox.js';
import { busiestWindow } from '../helpers/windows.js';

let speech: string;
beforeAll(async () => {
  speech = await synthesizeSpeech('thank you for your help');
});

describe('rate limit', () => {
  let box: Awaited<ReturnType<typeof sandbox>>;
  afterAll(() => box?.close());

  it('answers X-RateLimit-* headers and 429 with Retry-After past the window', async () => {
    box = await sandbox({ rateLimit: { limit: 3, intervalMs: 60_000 } });
    const url = `${box.url}/v2/transcript`;
    const headers = { authorization: box.transcription.apiKey };
    const first = await fetch(url, { headers });
    expect(first.headers.get('x-ratelimit-limit')).toBe('3');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
    expect(Number(first.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
    await fetch(url, { headers });
    await fetch(url, { headers });
    const refused = await fetch(url, { headers });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: 'Too Many Requests' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // A client without retries surfaces it typed, with the server's wait.
    const client = clientFor(box, { maxRetries: 0 });
    const error = await client.transcripts.list().catch((e: any) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterMs).toBeGreaterThan(0);
    await box.close();
  });

  it('polling many jobs at once stays inside the window and is never refused', async () => {
    const windowMs = 1_500;
    const limit = 12;
    box = await sandbox({ rateLimit: { limit, intervalMs: windowMs } });
    const client = clientFor(box, { rateLimit: { limit, interval: windowMs }, maxConcurrentJobs: 4 });
    const { upload_url } = await client.files.upload(speech);
    const jobs = await Promise.all(
      Array.from({ length: 4 }, () =>
        client.transcripts.transcribe(
          { audio_url: upload_url, speech_models: ['universal-2'] },
          { pollInterval: 20 },
        ),
      ),
    );
    for (const t of jobs) expect(t.status).toBe('completed');
    const stats = box.transcription.stats();
    expect(stats.rateLimited).toBe(0);
    expect(busiestWindow(stats.arrivals, windowMs)).toBeLessThanOrEqual(limit);
  });
});

describe('job concurrency', () => {
  let box: Awaited<ReturnType<typeof sandbox>>;
  let client: TranscriptionClient;
  afterAll(() => box?.close());

  it('the service queues jobs over its per-key cap with throttled: true, and runs them all', async () => {
    box = await sandbox({ concurrency: 1 });
    client = clientFor(box);
    const { upload_url } = await client.files.upload(speech);
    const submitted = await Promise.all(
      Array.from({ length: 3 }, () =>
        client.transcripts.submit({ audio_url: upload_url, speech_models: ['universal-2'] }),
      ),
    );
    expect(submitted.map((t) => t.throttled)).toEqual([false, true, true]);
    for (const t of submitted) expect(t.status).toBe('queued');
    const done = await Promise.all(
      submitted.map((t) => client.transcripts.waitUntilDone(t.id, { pollInterval: 20 })),
    );
    expect(done.every((t) => t.status === 'completed')).toBe(true);
    const throttledOnly = await client.transcripts.list({ throttled_only: true });
    expect(throttledOnly.data.map((t) => t.id).sort()).toEqual([submitted[1]!.id, submitted[2]!.id].sort());
    await box.close();
  });

  it('maxConcurrentJobs keeps a batch under the service cap: nothing is throttled', async () => {
    box = await sandbox({ concurrency: 2 });
    client = clientFor(box, { maxConcurrentJobs: 2 });
    const { upload_url } = await client.files.upload(speech);
    const done = await Promise.all(
      Array.from({ length: 6 }, () =>
        client.transcripts.transcribe(
          { audio_url: upload_url, speech_models: ['universal-2'] },
          { pollInterval: 20 },
        ),
      ),
    );
    expect(done.every((t) => t.status === 'completed')).toBe(true);
    expect(done.some((t) => t.throttled)).toBe(false);
  });

  it('a withOptions() clone shares the job slots of its parent', async () => {
    await box.close();
    box = await sandbox({ concurrency: 1 });
    client = clientFor(box, { maxConcurrentJobs: 1 });
    const quiet = client.withOptions({ logLevel: 'off', timeout: 60_000 });
    const { upload_url } = await client.files.upload(speech);
    const params = { audio_url: upload_url, speech_models: ['universal-2'] };
    const done = await Promise.all([
      client.transcripts.transcribe(params, { pollInterval: 20 }),
      quiet.transcripts.transcribe(params, { pollInterval: 20 }),
      client.transcripts.transcribe(params, { pollInterval: 20 }),
    ]);
    expect(done.map((t) => t.throttled)).toEqual([false, false, false]);
  });
});
