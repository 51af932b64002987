import { AbortError, TimeoutError, ValidationError, type ValidationIssue } from '@x/core';

/**
 * The wait loop of `waitUntilDone()`: sleep, poll, until done. Unlike core's `waitFor` (which polls at once
 * and then on a fixed schedule), each delay comes from the caller (the first one where the job is likely
 * done), and a webhook notification can cut a sleep short. Deadline and abort end it as `waitFor` does: a
 * `TimeoutError` (`timeout: 'total'`) or an `AbortError` with the caller's reason as its cause.
 */
export interface PollLoop<T> {
  poll: (signal: AbortSignal) => PromiseLike<T>;
  isDone: (value: T) => boolean;
  /** The delay before poll `index` (0-based), given how many polls found the job unfinished so far. */
  delayMs: (index: number) => number;
  /** Subscribes a wake-up that ends the current (or next) sleep at once; returns the unsubscribe. */
  subscribe?: (wake: () => void) => () => void;
  onStatus?: ((value: T) => void) | undefined;
  signal?: AbortSignal | undefined;
  deadlineMs?: number | undefined;
}

export async function pollUntilDone<T>(loop: PollLoop<T>): Promise<T> {
  const started = Date.now();
  const { deadlineMs, signal: callerSignal } = loop;
  let polls = 0;
  let polling = false;
  let lastStatus: string | undefined;
  const timeoutError = (when: string, phase: 'attempt' | 'backoff') => {
    const status = lastStatus === undefined ? '' : `; last status: ${lastStatus}`;
    const count = `${polls} poll${polls === 1 ? '' : 's'}`;
    return new TimeoutError(
      `Stopped waiting after ${count}: the deadline of ${deadlineMs} ms ${when}${status}`,
      {
        timeout: 'total',
        phase,
      },
    );
  };
  const controller = new AbortController();
  let timedOut = false;
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  const deadline =
    deadlineMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort(
            polling
              ? timeoutError(`passed during poll ${polls + 1}`, 'attempt')
              : timeoutError('passed', 'backoff'),
          );
        }, deadlineMs);
  // A notification that arrives mid-poll still skips the next sleep.
  let woken = false;
  let wakeSleep: (() => void) | undefined;
  const unsubscribe = loop.subscribe?.(() => {
    woken = true;
    wakeSleep?.();
  });

  try {
    for (let index = 0; ; index++) {
      const delay = woken ? 0 : loop.delayMs(index);
      // No sleep starts that would end past the deadline: the caller hears now.
      if (deadlineMs !== undefined && delay > 0 && Date.now() - started + delay >= deadlineMs)
        throw timeoutError('would pass before the next poll', 'backoff');
      if (delay > 0) {
        await new Promise<void>((resolve, reject) => {
          const signal = controller.signal;
          if (signal.aborted) return reject(signal.reason);
          const done = () => {
            clearTimeout(timer);
            signal.removeEventListener('abort', onAbort);
            wakeSleep = undefined;
          };
          const onAbort = () => {
            done();
            reject(signal.reason);
          };
          const timer = setTimeout(() => {
            done();
            resolve();
          }, delay);
          wakeSleep = () => {
            done();
            resolve();
          };
          signal.addEventListener('abort', onAbort, { once: true });
        });
      }
      woken = false;
      polling = true;
      const value = await untilAborted(() => loop.poll(controller.signal), controller.signal);
      polling = false;
      polls++;
      const status = (value as { status?: unknown } | null)?.status;
      lastStatus = typeof status === 'string' ? status : undefined;
      loop.onStatus?.(value);
      if (loop.isDone(value)) return value;
    }
  } catch (error) {
    if (!timedOut && controller.signal.aborted && error === controller.signal.reason) {
      const count = `${polls} poll${polls === 1 ? '' : 's'}`;
      throw new AbortError(`Stopped waiting after ${count}: aborted`, { cause: callerSignal?.reason });
    }
    throw error;
  } finally {
    clearTimeout(deadline);
    unsubscribe?.();
    callerSignal?.removeEventListener('abort', onCallerAbort);
  }
}

function untilAborted<V>(start: () => PromiseLike<V>, signal: AbortSignal): Promise<V> {
  return new Promise<V>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    const promise = (async () => start())();
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The wait options after their defaults, checked. */
export interface CheckedWait {
  /** `pollInterval` was given: its fixed schedule instead of the learnt one. */
  fixed: boolean;
  minMs: number;
  maxMs: number;
  audioSeconds: number | undefined;
  webhookPollMs: number;
}

const isMs = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** Every wait option checked before any request, each issue naming its option. */
export function checkWaitOptions(
  options: Record<string, unknown>,
  what: string,
  callbacks: readonly string[],
): CheckedWait {
  const issues: ValidationIssue[] = [];
  const { pollInterval, maxPollInterval, deadline, audioDuration, webhookPollInterval, expectWebhook } =
    options;
  const number = (path: string, value: unknown, ok: boolean, rule: string) => {
    if (value !== undefined && !ok) issues.push({ path, message: rule });
  };
  number('pollInterval', pollInterval, isMs(pollInterval), 'must be a number of ms >= 0');
  const minMs = isMs(pollInterval) ? pollInterval : 1_000;
  // A long pollInterval alone should not trip over the default cap.
  const maxMs = maxPollInterval === undefined ? Math.max(15_000, minMs) : (maxPollInterval as number);
  number(
    'maxPollInterval',
    maxPollInterval,
    isMs(maxPollInterval) && maxPollInterval >= minMs,
    'must be a number of ms >= pollInterval',
  );
  number('deadline', deadline, isMs(deadline) && deadline > 0, 'must be a number of ms > 0');
  number(
    'audioDuration',
    audioDuration,
    isMs(audioDuration) && audioDuration > 0,
    'must be the audio length in seconds, > 0',
  );
  number(
    'webhookPollInterval',
    webhookPollInterval,
    isMs(webhookPollInterval) && webhookPollInterval >= 1_000,
    'must be a number of ms >= 1000',
  );
  number('expectWebhook', expectWebhook, typeof expectWebhook === 'boolean', 'must be a boolean');
  for (const name of callbacks) {
    const v = options[name];
    number(name, v, typeof v === 'function', 'must be a function');
  }
  if (issues.length > 0) throw new ValidationError(what, issues);
  return {
    fixed: pollInterval !== undefined,
    minMs,
    maxMs,
    audioSeconds: audioDuration as number | undefined,
    webhookPollMs: (webhookPollInterval as number | undefined) ?? 30_000,
  };
}
