import { AbortError } from '../errors.js';
import { whenAborted } from './abort-fanout.js';

/**
 * One call's clock: the caller's signal and the whole-call deadline merged into one signal that the
 * limiter queue, the attempt in flight and the backoff sleep all listen to, so whichever runs when the
 * deadline passes is cut short.
 */
export class CallDeadline {
  readonly signal: AbortSignal | undefined;
  readonly totalMs: number | undefined;
  readonly #at: number;
  readonly #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #controller: AbortController | undefined;
  readonly #caller: AbortSignal | undefined;
  #expired = false;
  #stopForward: (() => void) | undefined;

  constructor(totalMs: number | undefined, caller: AbortSignal | undefined) {
    this.totalMs = totalMs;
    this.#caller = caller;
    this.#at = totalMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + totalMs;
    if (totalMs === undefined) {
      this.signal = caller;
      return;
    }
    const controller = new AbortController();
    this.#controller = controller;
    this.signal = controller.signal;
    this.#timer = setTimeout(() => {
      this.#expired = true;
      controller.abort(new Error(`totalTimeout of ${totalMs} ms ran out`));
    }, totalMs);
    if (caller?.aborted) controller.abort(caller.reason);
    else if (caller) this.#stopForward = whenAborted(caller, this.#forward);
  }

  readonly #forward = () => this.#controller?.abort(this.#caller?.reason);

  /** The deadline (not the caller) ended the call. */
  get expired(): boolean {
    return this.#expired;
  }

  remaining(): number {
    return this.#at - Date.now();
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#stopForward?.();
  }

  /** Waits `ms` unless the caller or the deadline ends it first (AbortError; the client names which). */
  sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    const signal = this.signal;
    return new Promise((resolve, reject) => {
      if (signal?.aborted)
        return reject(new AbortError('Request aborted while waiting to retry', { cause: signal.reason }));
      const timer = setTimeout(() => {
        stop?.();
        resolve();
      }, ms);
      const stop =
        signal &&
        whenAborted(signal, () => {
          clearTimeout(timer);
          reject(new AbortError('Request aborted while waiting to retry', { cause: signal.reason }));
        });
    });
  }
}
