import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { AbortError, TimeoutError, ValidationError, waitFor } from '../../src/index.js';

// `delayBeforePoll` and `wake`: a sleep of an hour that must not be waited out, so a wake that fails to end
// it makes the test time out rather than pass late.
const HOUR = 3_600_000;

/** A `wake` option that records its subscriptions and hands out the current wake-up. */
function wakeSource() {
  let wakeUp: (() => void) | undefined;
  const source = {
    subscribed: 0,
    unsubscribed: 0,
    wake: (fn: () => void) => {
      source.subscribed++;
      wakeUp = fn;
      return () => {
        source.unsubscribed++;
      };
    },
    fire: () => wakeUp?.(),
  };
  return source;
}

describe('waitFor with delayBeforePoll and wake', () => {
  it('a wake mid-sleep ends the sleep at once, even one before the first poll', async () => {
    const source = wakeSource();
    const asked: number[] = [];
    let polls = 0;
    const done = waitFor(async () => ({ status: 'completed', poll: ++polls }), {
      isDone: (v) => v.status === 'completed',
      delayBeforePoll: (index) => {
        asked.push(index);
        return HOUR;
      },
      wake: source.wake,
    });
    // The first sleep has started synchronously inside waitFor.
    source.fire();
    await expect(done).resolves.toEqual({ status: 'completed', poll: 1 });
    expect(asked).toEqual([0]);
    expect(source).toMatchObject({ subscribed: 1, unsubscribed: 1 });
  });

  it('a wake during a poll skips the next sleep, and only that one', async () => {
    const source = wakeSource();
    const statuses: string[] = [];
    let polls = 0;
    const error = await waitFor(
      async () => {
        polls++;
        if (polls === 1) source.fire();
        return { status: 'processing' };
      },
      {
        isDone: (v) => v.status === 'completed',
        delayBeforePoll: (index) => (index === 0 ? 0 : HOUR),
        wake: source.wake,
        onStatus: (v, n) => statuses.push(`${n}:${v.status}`),
        deadlineMs: 60_000,
      },
    ).catch((e: unknown) => e);
    // Poll 2 came without the hour's sleep; before poll 3 the hour is due again and overruns the deadline.
    expect(statuses).toEqual(['1:processing', '2:processing']);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe(
      'Stopped waiting after 2 polls: the deadline of 60000 ms would pass before the next poll; last status: processing',
    );
    expect(error).toMatchObject({ timeout: 'total', phase: 'backoff' });
    expect(source.unsubscribed).toBe(1);
  });

  it('a wake during a poll also skips a sleep of the default schedule', async () => {
    const source = wakeSource();
    let polls = 0;
    const value = await waitFor(
      async () => {
        polls++;
        if (polls === 1) source.fire();
        return { status: polls === 2 ? 'completed' : 'processing' };
      },
      { isDone: (v) => v.status === 'completed', intervalMs: HOUR, wake: source.wake },
    );
    expect(value).toEqual({ status: 'completed' });
    expect(polls).toBe(2);
  });

  it('refuses a sleep before the first poll that would overrun the deadline, naming 0 polls', async () => {
    const poll = async () => ({ status: 'queued' });
    const error = await waitFor(poll, {
      isDone: () => false,
      delayBeforePoll: () => HOUR,
      deadlineMs: 50,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe(
      'Stopped waiting after 0 polls: the deadline of 50 ms would pass before the next poll',
    );
  });

  it('the deadline still cuts a poll in flight', async () => {
    const source = wakeSource();
    const error = await waitFor(() => new Promise<never>(() => {}), {
      isDone: () => true,
      delayBeforePoll: () => 0,
      wake: source.wake,
      deadlineMs: 20,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe(
      'Stopped waiting after 0 polls: the deadline of 20 ms passed during poll 1',
    );
    expect(error).toMatchObject({ timeout: 'total', phase: 'attempt' });
    expect(source).toMatchObject({ subscribed: 1, unsubscribed: 1 });
  });

  it('an abort mid-sleep ends the wait as before, removing its listeners and the subscription', async () => {
    const source = wakeSource();
    const controller = new AbortController();
    const reason = new Error('user left');
    const done = waitFor(async () => ({ status: 'completed' }), {
      isDone: () => true,
      delayBeforePoll: () => HOUR,
      wake: source.wake,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    controller.abort(reason);
    const error = await done;
    expect(error).toBeInstanceOf(AbortError);
    expect((error as Error).message).toBe('Stopped waiting after 0 polls: aborted');
    expect((error as Error).cause).toBe(reason);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(source).toMatchObject({ subscribed: 1, unsubscribed: 1 });
    // A wake-up after the end changes nothing.
    source.fire();
  });

  it('checks that both options are functions', async () => {
    const error = await waitFor(async () => 1, {
      isDone: () => true,
      delayBeforePoll: 5 as unknown as () => number,
      wake: 'soon' as unknown as () => () => void,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.path)).toEqual(['delayBeforePoll', 'wake']);
  });

  it("a delay or deadline past setTimeout's range waits instead of firing after 1 ms (found by the transcription fuzz)", async () => {
    const controller = new AbortController();
    let polls = 0;
    const waiting = waitFor(
      async () => {
        polls++;
        return { status: 'processing' };
      },
      {
        isDone: () => false,
        delayBeforePoll: (index) => (index === 0 ? 0 : 1e20),
        deadlineMs: 1e40,
        signal: controller.signal,
      },
    );
    // Ten macrotask turns: the overflowing timers (1 ms) would have polled again or timed out by now.
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(polls).toBe(1);
    controller.abort(new Error('done'));
    await expect(waiting).rejects.toBeInstanceOf(AbortError);
  });
});
