import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  AbortError,
  parseWebhook,
  TimeoutError,
  type Transcript,
  TranscriptError,
  TranscriptionClient,
  type TranscriptParams,
  TranscriptWaitTimeoutError,
  ValidationError,
  verifyWebhook,
  XError,
} from '../../src/index.js';
import { JobSlots } from '../../src/job-slots.js';

describe('TranscriptionClient options', () => {
  it('refuses a missing key, a Bearer key, a /v2 base URL and bad limits, naming each', () => {
    const error = (() => {
      try {
        new TranscriptionClient({
          apiKey: 'Bearer abc',
          baseUrl: 'https://api.assemblyai.com/v2',
          maxConcurrentJobs: 0,
          pollShare: 2,
        });
      } catch (e) {
        return e as ValidationError;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect(error?.issues.map((i) => i.path).sort()).toEqual([
      'apiKey',
      'baseUrl',
      'maxConcurrentJobs',
      'pollShare',
    ]);
    expect(() => new TranscriptionClient({ apiKey: '' })).toThrow(/apiKey/);
  });

  it('keeps the key out of its JSON form', () => {
    const client = new TranscriptionClient({ apiKey: 'secret-key-abcdef' });
    expect(JSON.stringify(client)).not.toContain('secret-key-abcdef');
  });
});

describe('JobSlots', () => {
  it('never grants more than its size, and hands freed slots to waiters in order', async () => {
    const slots = new JobSlots(2);
    const a = await slots.acquire();
    await slots.acquire();
    const order: string[] = [];
    const granted = (name: string) => (release: () => void) => {
      order.push(name);
      return release;
    };
    const c = slots.acquire().then(granted('c'));
    const d = slots.acquire().then(granted('d'));
    await Promise.resolve();
    expect(order).toEqual([]);
    a();
    a();
    (await c)();
    await d;
    expect(order).toEqual(['c', 'd']);
  });

  it('an aborted waiter leaves the queue', async () => {
    const slots = new JobSlots(1);
    const first = await slots.acquire();
    const controller = new AbortController();
    const waiting = slots.acquire(controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toBeInstanceOf(AbortError);
    await expect(slots.acquire(controller.signal)).rejects.toThrow(/maxConcurrentJobs/);
    first();
    const next = await slots.acquire();
    expect(typeof next).toBe('function');
  });
});

describe('webhooks', () => {
  it('verifyWebhook compares the registered header, case-insensitively by name', () => {
    expect(verifyWebhook({ 'x-secret': 'abc' }, { name: 'X-Secret', value: 'abc' })).toBe(true);
    expect(verifyWebhook({ 'x-secret': ['abc', 'zzz'] }, { name: 'X-Secret', value: 'abc' })).toBe(true);
    expect(verifyWebhook(new Headers({ 'X-Secret': 'abd' }), { name: 'x-secret', value: 'abc' })).toBe(false);
    expect(verifyWebhook({ 'x-secret': 'ab' }, { name: 'x-secret', value: 'abc' })).toBe(false);
    expect(() => verifyWebhook({}, { name: 'x', value: '' })).toThrow(ValidationError);
  });

  it('parseWebhook reads both notification kinds from text, bytes or objects', () => {
    expect(parseWebhook('{"transcript_id":"t1","status":"completed"}')).toEqual({
      transcript_id: 't1',
      status: 'completed',
    });
    const bytes = new TextEncoder().encode(
      '{"status":"redacted_audio_ready","redacted_audio_url":"https://x/y"}',
    );
    expect(parseWebhook(bytes)).toMatchObject({ status: 'redacted_audio_ready' });
    expect(parseWebhook({ transcript_id: 't2', status: 'error' })).toMatchObject({ status: 'error' });
  });
});

describe('errors', () => {
  it('TranscriptError carries the id and the service message and is an XError', () => {
    const error = new TranscriptError({
      id: 't1',
      status: 'error',
      error: 'Audio duration is too short.',
    } as Transcript);
    expect(error).toBeInstanceOf(XError);
    expect(error.message).toBe('Transcript t1 failed: Audio duration is too short.');
    expect(error.toJSON()).toMatchObject({ transcriptId: 't1' });
  });

  it('TranscriptWaitTimeoutError is a TimeoutError that says how to resume', () => {
    const cause = new TimeoutError('Stopped waiting after 3 polls', { timeout: 'total', phase: 'backoff' });
    const error = new TranscriptWaitTimeoutError('t9', 'processing', cause);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.timeout).toBe('total');
    expect(error.message).toMatch(/waitUntilDone\("t9"\)/);
  });
});

describe('types', () => {
  it('model ids and statuses are open; speech_models is required', () => {
    expectTypeOf<string[]>().toExtend<TranscriptParams['speech_models']>();
    expectTypeOf<'universal-9'>().toExtend<TranscriptParams['speech_models'][number]>();
    expectTypeOf<'some-new-status'>().toExtend<Transcript['status']>();
    // @ts-expect-error speech_models is required
    const missing: TranscriptParams = { audio_url: 'https://x' };
    expect(missing).toBeDefined();
  });
});
