import { AbortError, TimeoutError, ValidationError, type ValidationIssue } from './errors.js';
import { whenAborted } from './internal/abort-fanout.js';

/**
 * Polling for jobs that finish later (a transcript until `completed` or `error`). `waitFor` sends no
 * request itself: each poll is whatever `poll` does, in practice a client call, which already waits for
 * the client's rate limiter and retries by the client's policy. Waiting therefore never bypasses the
 * limiter, and a poll's transient failures are retried inside that poll; a failure that survives them
 * ends the wait.
 */

export interface PollSchedule {
  /** Delay before the second poll, and the shortest delay ever: polls never come closer than this. */
  intervalMs: number;
  /** Each delay's ceiling is the previous one times this. */
  backoff: number;
  /** Cap on one delay. */
  maxIntervalMs: number;
}

export const DEFAULT_POLL_SCHEDULE: PollSchedule = { intervalMs: 1_000, backoff: 1.5, maxIntervalMs: 15_000 };

/**
 * The delay after poll number `pollIndex + 1`: uniform between `intervalMs` and a ceiling that grows by
 * `backoff` per poll up to `maxIntervalMs`, the scheme of the AWS SDK waiters. Unlike the full jitter of
 * retries (which may draw 0), the floor keeps a poller from ever hammering the service, and the jitter
 * spreads out many jobs submitted together so their polls do not arrive in bursts.
 */
export function pollDelay(
  pollIndex: number,
  schedule: PollSchedule = DEFAULT_POLL_SCHEDULE,
  random: () => number = Math.random,
): number {
  const { intervalMs, backoff, maxIntervalMs } = schedule;
  const ceiling = Math.max(intervalMs, Math.min(maxIntervalMs, intervalMs * backoff ** pollIndex));
  return Math.round(intervalMs + random() * (ceiling - intervalMs));
}

export interface WaitForOptions<T> extends Partial<PollSchedule> {
  /** True when `value` is final (done or failed for good); `waitFor` then resolves with it. */
  isDone: (value: T) => boolean;
  /** Called after every poll, final one included, with the 1-based poll number: progress reporting. */
  onStatus?: ((value: T, poll: number) => void) | undefined;
  /** Names a value's state in the timeout message. Default: its `status` field when that is a string. */
  describe?: ((value: T) => string | undefined) | undefined;
  /** Stops the wait, mid-sleep or mid-poll, with an `AbortError`. */
  signal?: AbortSignal | undefined;
  /** Total time budget in ms, polls included; past it the wait ends with a `TimeoutError`. No default. */
  deadlineMs?: number | undefined;
  /**
   * The delay in ms before poll `index` (0-based), replacing the schedule: for callers that know when the
   * job is likely done, so even the first poll may wait. A delay of 0 (or less) polls at once.
   */
  delayBeforePoll?: ((index: number) => number) | undefined;
  /**
   * Subscribes `wakeUp`, which ends the current sleep at once (a push notification that the job is done);
   * one that comes during a poll skips the next sleep. Returns the unsubscribe, called when the wait ends.
   */
  wake?: ((wakeUp: () => void) => () => void) | undefined;
}

/**
 * Calls `poll` until `isDone` accepts its value, sleeping on `pollDelay`'s schedule in between (or
 * `delayBeforePoll`'s, cut short by `wake`), and
 * resolves with that value. Errors thrown by `poll`, `isDone` or `onStatus` end the wait unchanged.
 *
 * `poll` receives a signal that aborts when the caller's `signal` does or the deadline passes: pass it on
 * to the request so the request in flight is cancelled too. A `poll` that ignores it is abandoned, not
 * awaited, so the wait still ends promptly.
 */
export async function waitFor<T>(
  poll: (signal: AbortSignal) => PromiseLike<T>,
  options: WaitForOptions<T>,
): Promise<T> {
  const schedule = checkedSchedule(options);
  const { deadlineMs, signal: callerSignal } = options;
  const describe = options.describe ?? defaultDescribe;
  const started = Date.now();
  let polls = 0;
  let polling = false;
  let lastStatus: string | undefined;
  // A total budget in the error hierarchy's terms: `phase` says whether a poll or the wait between was cut.
  const timeoutError = (when: string, phase: 'attempt' | 'backoff') => {
    const status = lastStatus === undefined ? '' : `; last status: ${lastStatus}`;
    const count = `${polls} poll${polls === 1 ? '' : 's'}`;
    return new TimeoutError(
      `Stopped waiting after ${count}: the deadline of ${deadlineMs} ms ${when}${status}`,
      { timeout: 'total', phase },
    );
  };

  // One controller for both ways to stop, so neither `AbortSignal.any` (Node 20.3+, recent browsers)
  // nor a fallback for it is needed.
  const controller = new AbortController();
  let timedOut = false;
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) onCallerAbort();
  const stopCallerAbort = callerSignal?.aborted
    ? undefined
    : callerSignal && whenAborted(callerSignal, onCallerAbort);
  const deadline =
    deadlineMs === undefined
      ? undefined
      : setTimeout(
          () => {
            timedOut = true;
            controller.abort(
              polling
                ? timeoutError(`passed during poll ${polls + 1}`, 'attempt')
                : timeoutError('passed', 'backoff'),
            );
          },
          Math.min(deadlineMs, MAX_TIMER_MS),
        );

  const { delayBeforePoll } = options;
  // A wake-up that comes while no sleep is running (mid-poll) is kept for the next one.
  let woken = false;
  let endSleep: (() => void) | undefined;
  const unsubscribe = options.wake?.(() => {
    woken = true;
    endSleep?.();
  });

  try {
    for (let index = 0; ; index++) {
      // The schedule polls at once, then sleeps between polls (even 0 ms); a caller's delay of 0 skips it.
      const delayMs = delayBeforePoll
        ? delayBeforePoll(index)
        : index === 0
          ? 0
          : pollDelay(index - 1, schedule);
      const sleeps = !woken && (delayMs > 0 || (!delayBeforePoll && index > 0));
      if (sleeps) {
        // As with retries: no sleep starts that would end past the deadline, so the caller hears now.
        if (deadlineMs !== undefined && Date.now() - started + delayMs >= deadlineMs)
          throw timeoutError('would pass before the next poll', 'backoff');
        await sleep(delayMs, controller.signal, (end) => {
          endSleep = end;
        });
      }
      woken = false;
      polling = true;
      const value = await untilAborted(() => poll(controller.signal), controller.signal);
      polling = false;
      polls++;
      lastStatus = describe(value);
      options.onStatus?.(value, polls);
      if (options.isDone(value)) return value;
    }
  } catch (error) {
    // An abort rejects the poll or sleep at once with the controller's reason (see untilAborted), ahead
    // of whatever error the poll it cut would raise later. The deadline's reason is already the
    // TimeoutError; the caller's abort is reported as ours, with the caller's reason as the cause.
    if (!timedOut && controller.signal.aborted && error === controller.signal.reason) {
      const count = `${polls} poll${polls === 1 ? '' : 's'}`;
      throw new AbortError(`Stopped waiting after ${count}: aborted`, { cause: callerSignal?.reason });
    }
    throw error;
  } finally {
    clearTimeout(deadline);
    unsubscribe?.();
    stopCallerAbort?.();
  }
}

function defaultDescribe(value: unknown): string | undefined {
  const status = (value as { status?: unknown } | null)?.status;
  return typeof status === 'string' ? status : undefined;
}

function checkedSchedule(options: WaitForOptions<never>): PollSchedule {
  const schedule: PollSchedule = {
    intervalMs: options.intervalMs ?? DEFAULT_POLL_SCHEDULE.intervalMs,
    backoff: options.backoff ?? DEFAULT_POLL_SCHEDULE.backoff,
    maxIntervalMs: options.maxIntervalMs ?? DEFAULT_POLL_SCHEDULE.maxIntervalMs,
  };
  // A long `intervalMs` alone should not trip over the default cap.
  if (options.maxIntervalMs === undefined)
    schedule.maxIntervalMs = Math.max(schedule.maxIntervalMs, schedule.intervalMs);
  const issues: ValidationIssue[] = [];
  const check = (path: string, value: number | undefined, ok: boolean, rule: string) => {
    if (value !== undefined && !(Number.isFinite(value) && ok)) issues.push({ path, message: rule });
  };
  check('intervalMs', schedule.intervalMs, schedule.intervalMs >= 0, 'must be a number >= 0');
  check('backoff', schedule.backoff, schedule.backoff >= 1, 'must be a number >= 1');
  check(
    'maxIntervalMs',
    schedule.maxIntervalMs,
    schedule.maxIntervalMs >= schedule.intervalMs,
    'must be a number >= intervalMs',
  );
  check('deadlineMs', options.deadlineMs, (options.deadlineMs ?? 0) > 0, 'must be a number > 0');
  for (const name of ['delayBeforePoll', 'wake'] as const) {
    const value = options[name];
    if (value !== undefined && typeof value !== 'function')
      issues.push({ path: name, message: 'must be a function' });
  }
  if (issues.length > 0) throw new ValidationError('waitFor options', issues);
  return schedule;
}

/**
 * Settles with what `start` returns, or rejects with the signal's reason as soon as it aborts, whichever
 * comes first. `start` is not called at all on a signal that is already aborted.
 */
function untilAborted<V>(start: () => PromiseLike<V>, signal: AbortSignal): Promise<V> {
  return new Promise<V>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    // Through an async function, so that a `poll` that throws synchronously rejects like one that rejects.
    const promise = (async () => start())();
    // Also handles a rejection that comes after the abort, so an abandoned poll is never "unhandled".
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** setTimeout's largest delay (about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Listeners are removed on every path: a wait of hours sleeps hundreds of times on the same signal.
 * `setEnd` receives a function that ends this sleep early, and `undefined` once it is over.
 */

function sleep(
  ms: number,
  signal: AbortSignal,
  setEnd: (end: (() => void) | undefined) => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // `onStatus` may have aborted synchronously, after the abort event of this signal already fired.
    if (signal.aborted) return reject(signal.reason);
    const settle = (outcome: () => void) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      setEnd(undefined);
      outcome();
    };
    const onAbort = () => settle(() => reject(signal.reason));
    // Runtimes fire a timer past 2^31 - 1 ms after 1 ms: a huge delay would poll at once instead of never.
    const timer = setTimeout(() => settle(resolve), Math.min(ms, MAX_TIMER_MS));
    signal.addEventListener('abort', onAbort, { once: true });
    setEnd(() => settle(resolve));
  });
}
