import { synthesizeSpeech } from '@x/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptionClient } from '../../src/index.js';
import { clientFor, sandbox } from '../helpers/sandbox.js';
import { busiestWindow } from '../helpers/windows.js';

/*
 * transcribe() with its default, learnt schedule, many jobs against a rate-limited emulator over real
 * sockets. Invariants only: never more requests in a window than the limit, every job completes exactly
 * once, and a bound on the polls each job spent (checked against the emulator's own request count).
 */

const LIMIT = 10;
const WINDOW_MS = 2_000;
/** Polls a job may spend: the first where it is likely done, then a backoff that grows 1.5x from 1 s. */
const MAX_POLLS_PER_JOB = 8;

let box: Awaited<ReturnType<typeof sandbox>>;
let client: TranscriptionClient;
let audioUrl: string;

beforeAll(async () => {
  box = await sandbox({ rateLimit: { limit: LIMIT, intervalMs: WINDOW_MS } });
  client = clientFor(box, { rateLimit: { limit: LIMIT, interval: WINDOW_MS }, maxConcurrentJobs: 3 });
  audioUrl = (await client.files.upload(await synthesizeSpeech('please call me back tomorrow'))).upload_url;
});
afterAll(() => box?.close());

describe('adaptive polling under a request budget', () => {
  it(`N jobs: <= ${LIMIT} requests in any ${WINDOW_MS} ms, each job completed once, <= ${MAX_POLLS_PER_JOB} polls each`, async () => {
    box.transcription.resetStats();
    const jobs = 6;
    const polls = Array<number>(jobs).fill(0);
    const done = await Promise.all(
      Array.from({ length: jobs }, (_, i) =>
        client.transcripts.transcribe(
          { audio_url: audioUrl, speech_models: ['universal-2'] },
          { onStatus: () => polls[i]!++ },
        ),
      ),
    );
    const stats = box.transcription.stats();
    expect(stats.rateLimited).toBe(0);
    expect(busiestWindow(stats.arrivals, WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
    expect(done.map((t) => t.status)).toEqual(Array(jobs).fill('completed'));
    expect(new Set(done.map((t) => t.id)).size).toBe(jobs);
    for (const n of polls) {
      expect(n).toBeGreaterThanOrEqual(1);
      expect(n).toBeLessThanOrEqual(MAX_POLLS_PER_JOB);
    }
    // The emulator saw the submits and exactly the polls the client reported: nothing else was spent.
    expect(stats.requests).toBe(jobs + polls.reduce((a, b) => a + b, 0));
    const listed = (await client.transcripts.list({ limit: 200 })).data.filter((t) =>
      done.some((d) => d.id === t.id),
    );
    expect(listed).toHaveLength(jobs);
    expect(listed.every((t) => t.status === 'completed')).toBe(true);
  }, 240_000);

  it('waitUntilDone() on a finished job polls once, at once', async () => {
    const t = await client.transcripts.transcribe({ audio_url: audioUrl, speech_models: ['universal-2'] });
    box.transcription.resetStats();
    let polls = 0;
    const again = await client.transcripts.waitUntilDone(t.id, { onStatus: () => polls++ });
    expect(again.id).toBe(t.id);
    expect(polls).toBe(1);
    expect(box.transcription.stats().requests).toBe(1);
  }, 120_000);
});
