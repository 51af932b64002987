import { getEventListeners } from 'node:events';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  AbortError,
  DEFAULT_POLL_SCHEDULE,
  pollDelay,
  TimeoutError,
  ValidationError,
  waitFor,
} from '../../src/index.js';

describe('pollDelay', () => {
  const schedule = { intervalMs: 100, backoff: 2, maxIntervalMs: 1_000 };

  it('starts at intervalMs and lets the ceiling grow by backoff per poll, up to maxIntervalMs', () => {
    const top = () => 1;
    expect([0, 1, 2, 3, 4, 5, 20].map((i) => pollDelay(i, schedule, top))).toEqual([
      100, 200, 400, 800, 1_000, 1_000, 1_000,
    ]);
  });

  it('never goes below intervalMs, whatever the draw', () => {
    const bottom = () => 0;
    expect([0, 1, 5, 50].map((i) => pollDelay(i, schedule, bottom))).toEqual([100, 100, 100, 100]);
  });

  it('draws uniformly between intervalMs and the ceiling', () => {
    expect(pollDelay(2, schedule, () => 0.5)).toBe(250);
    expect(pollDelay(3, schedule, () => 0.25)).toBe(275);
  });

  it('stays finite for very long waits (backoff ** index overflows to Infinity)', () => {
    expect(pollDelay(10_000, schedule, () => 1)).toBe(1_000);
  });

  it('polls at a fixed interval when backoff is 1', () => {
    expect([0, 3, 9].map((i) => pollDelay(i, { ...schedule, backoff: 1 }, () => 0.7))).toEqual([
      100, 100, 100,
    ]);
  });

  it('uses 1 s growing by 1.5x up to 15 s by default', () => {
    expect(DEFAULT_POLL_SCHEDULE).toEqual({ intervalMs: 1_000, backoff: 1.5, maxIntervalMs: 15_000 });
    expect(pollDelay(0, undefined, () => 1)).toBe(1_000);
    expect(pollDelay(2, undefined, () => 1)).toBe(2_250);
    expect(pollDelay(30, undefined, () => 1)).toBe(15_000);
  });
});

// waitFor with in-memory polls; the same behaviour over real sockets is in test/integration/wait.test.ts.
describe('waitFor', () => {
  const never = () => new Promise<never>(() => {});

  it('infers the value type from poll', async () => {
    const value = waitFor(async () => ({ status: 'completed' as 'queued' | 'completed', text: 'hi' }), {
      isDone: (v) => v.status === 'completed',
      intervalMs: 1,
    });
    expectTypeOf(value).toEqualTypeOf<Promise<{ status: 'queued' | 'completed'; text: string }>>();
    await expect(value).resolves.toEqual({ status: 'completed', text: 'hi' });
  });

  it('ends with AbortError when aborted during a poll that ignores its signal', async () => {
    const controller = new AbortController();
    const waiting = waitFor(
      () => {
        queueMicrotask(() => controller.abort());
        return never();
      },
      { isDone: () => true, signal: controller.signal },
    );
    await expect(waiting).rejects.toBeInstanceOf(AbortError);
  });

  it('does not poll at all when the signal is already aborted', async () => {
    let polls = 0;
    const waiting = waitFor(async () => ++polls, { isDone: () => true, signal: AbortSignal.abort() });
    await expect(waiting).rejects.toBeInstanceOf(AbortError);
    expect(polls).toBe(0);
  });

  it('ends mid-sleep when onStatus aborts synchronously', async () => {
    const controller = new AbortController();
    const waiting = waitFor(async () => ({ status: 'queued' }), {
      isDone: () => false,
      onStatus: () => controller.abort(),
      signal: controller.signal,
      // Far beyond the test timeout: only the abort can end this sleep.
      intervalMs: 600_000,
    });
    await expect(waiting).rejects.toThrow(/^Stopped waiting after 1 poll: aborted$/);
  });

  it('ends with TimeoutError when the deadline passes during a poll that ignores its signal', async () => {
    let polls = 0;
    const waiting = waitFor(() => (++polls === 1 ? Promise.resolve({ status: 'processing' }) : never()), {
      isDone: () => false,
      deadlineMs: 50,
      intervalMs: 1,
    });
    const error = await waiting.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe(
      'Stopped waiting after 1 poll: the deadline of 50 ms passed during poll 2; last status: processing',
    );
    expect(error).toMatchObject({ timeout: 'total', phase: 'attempt' });
  });

  it('gives up at once when the next sleep would end past the deadline', async () => {
    const error = await waitFor(async () => ({ state: 3 }), {
      isDone: () => false,
      describe: (v) => `state ${v.state}`,
      deadlineMs: 60_000,
      intervalMs: 600_000,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({
      message:
        'Stopped waiting after 1 poll: the deadline of 60000 ms would pass before the next poll; last status: state 3',
      timeout: 'total',
      phase: 'backoff',
    });
  });

  it('passes poll, isDone and onStatus errors through unchanged', async () => {
    const boom = new Error('boom');
    await expect(waitFor(() => Promise.reject(boom), { isDone: () => true })).rejects.toBe(boom);
    await expect(
      waitFor(
        () => {
          throw boom;
        },
        { isDone: () => true },
      ),
    ).rejects.toBe(boom);
    await expect(
      waitFor(async () => 1, {
        isDone: () => {
          throw boom;
        },
      }),
    ).rejects.toBe(boom);
    await expect(
      waitFor(async () => 1, {
        isDone: () => true,
        onStatus: () => {
          throw boom;
        },
      }),
    ).rejects.toBe(boom);
  });

  it('rejects nonsense schedules before polling, naming each field', async () => {
    let polls = 0;
    const poll = async () => ++polls;
    const error = await waitFor(poll, {
      isDone: () => true,
      intervalMs: -1,
      backoff: 0.5,
      deadlineMs: 0,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.path)).toEqual([
      'intervalMs',
      'backoff',
      'deadlineMs',
    ]);
    await expect(waitFor(poll, { isDone: () => true, intervalMs: 100, maxIntervalMs: 50 })).rejects.toThrow(
      'maxIntervalMs: must be a number >= intervalMs',
    );
    expect(polls).toBe(0);
  });

  it('raises the default cap to a long intervalMs instead of rejecting it', async () => {
    await expect(waitFor(async () => 'done', { isDone: () => true, intervalMs: 60_000 })).resolves.toBe(
      'done',
    );
  });

  it('lets go of the caller signal and the deadline once done', async () => {
    const controller = new AbortController();
    let pollSignal: AbortSignal | undefined;
    await waitFor(
      async (signal) => {
        pollSignal = signal;
        return 'done';
      },
      { isDone: () => true, signal: controller.signal, deadlineMs: 20 },
    );
    controller.abort();
    // Timers fire in order, so by this one the deadline's would have fired had it not been cleared.
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(pollSignal?.aborted).toBe(false);
  });

  it('does not pile up abort listeners over many polls', async () => {
    const listeners: number[] = [];
    await waitFor(
      async (signal) => {
        listeners.push(getEventListeners(signal, 'abort').length);
        return listeners.length;
      },
      { isDone: (n) => n === 30, intervalMs: 0 },
    );
    expect(listeners).toHaveLength(30);
    expect(listeners.at(-1)).toBe(listeners[1]);
  });
});
