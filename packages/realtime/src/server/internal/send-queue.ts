import { AbortError, RateLimitQueueError, TimeoutError } from '@x/core';

/** What a caller does when `maxQueue` calls already wait for a slot. */
export type QueueFullPolicy = 'wait' | 'reject';

export interface SendQueueOptions {
  /** HTTP calls in flight at once. */
  concurrency: number;
  /** Calls allowed to wait for a slot. */
  maxQueue: number;
  queueFull: QueueFullPolicy;
}

export interface SendQueueStats {
  /** Calls sent and not yet answered (response body read, or failed). Never above `concurrency`. */
  inFlight: number;
  /** Calls waiting for a slot. Never above `maxQueue`. */
  queued: number;
  /** Calls held because the queue was full (`queueFull: 'wait'`), admitted in order as it drains. */
  held: number;
}

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** Frees the slot; calling it again does nothing. */
export type Release = () => void;

/**
 * A counting gate in front of every HTTP call of one `RealtimeServer`: at most `concurrency` in flight, at most
 * `maxQueue` waiting behind them, and beyond that either held (the caller's promise stays pending until the
 * queue has room, so a producer that awaits its calls runs at the API's pace) or refused at once with
 * `RateLimitQueueError('queue_full')`, core's error for a full queue. A slot is taken per attempt: a retry
 * waits its turn again, and a waiting call leaves when its signal aborts (the caller's `signal`, the
 * call's `totalTimeout`) or after `timeoutMs`, the attempt's `timeout`, spent waiting.
 *
 * Core's rate limiter counts requests per time window; this counts requests at once, which is what keeps a
 * slow API from piling up sockets and buffered bodies. Core runs it as the client's `sendGate`, after the
 * rate limiter, and frees the slot once the attempt's body is read (or the attempt failed).
 */
export class SendQueue {
  readonly #options: SendQueueOptions;
  #inFlight = 0;
  readonly #queued: Waiter[] = [];
  readonly #held: Waiter[] = [];

  constructor(options: SendQueueOptions) {
    this.#options = options;
  }

  stats(): SendQueueStats {
    return { inFlight: this.#inFlight, queued: this.#queued.length, held: this.#held.length };
  }

  acquire(signal?: AbortSignal, timeoutMs?: number): Promise<Release> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const { concurrency, maxQueue, queueFull } = this.#options;
    if (this.#inFlight < concurrency && this.#queued.length === 0 && this.#held.length === 0) {
      this.#inFlight++;
      return Promise.resolve(this.#release());
    }
    const full = this.#queued.length >= maxQueue;
    if (full && queueFull === 'reject') {
      return Promise.reject(
        new RateLimitQueueError(
          'queue_full',
          `Send queue is full (${concurrency} calls in flight, ${maxQueue} waiting); raise maxQueue or concurrency, send fewer calls at once, or use queueFull: 'wait'`,
        ),
      );
    }
    return new Promise<void>((resolve, reject) => {
      const list = full ? this.#held : this.#queued;
      const waiter: Waiter = { resolve, reject, signal, onAbort: undefined, timer: undefined };
      const leave = (error: unknown) => {
        detach(waiter);
        for (const from of [this.#queued, this.#held]) {
          const at = from.indexOf(waiter);
          if (at >= 0) from.splice(at, 1);
        }
        this.#dispatch();
        reject(error);
      };
      if (signal) {
        waiter.onAbort = () => leave(abortError(signal));
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      if (timeoutMs !== undefined && Number.isFinite(timeoutMs)) {
        // The attempt's own timer starts only once it is sent, so its `timeout` bounds this wait here.
        waiter.timer = setTimeout(
          () =>
            leave(
              new TimeoutError(
                `Request waited ${timeoutMs} ms (its per-attempt timeout) for a send slot and was not sent: ${concurrency} calls were in flight; raise concurrency or timeout`,
                { timeout: 'attempt', phase: 'queue', unsent: true },
              ),
            ),
          timeoutMs,
        );
      }
      list.push(waiter);
    }).then(() => this.#release());
  }

  /** Rejects every waiting and held call (the client is being discarded). */
  close(error: unknown): void {
    for (const waiter of [...this.#queued.splice(0), ...this.#held.splice(0)]) {
      detach(waiter);
      waiter.reject(error);
    }
  }

  #release(): Release {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.#inFlight--;
      this.#dispatch();
    };
  }

  /**
   * Starts waiting calls, oldest first, while slots are free, then moves held calls into the room that made.
   * A held call may start straight away: with `maxQueue: 0` nothing is ever queued, only held.
   */
  #dispatch(): void {
    while (this.#inFlight < this.#options.concurrency) {
      const next = this.#queued.shift() ?? this.#held.shift();
      if (!next) break;
      detach(next);
      this.#inFlight++;
      next.resolve();
    }
    while (this.#held.length > 0 && this.#queued.length < this.#options.maxQueue)
      this.#queued.push(this.#held.shift()!);
  }
}

function detach(waiter: Waiter): void {
  if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
  clearTimeout(waiter.timer);
}

function abortError(signal: AbortSignal): AbortError {
  return new AbortError('Request aborted while waiting for a send slot', { cause: signal.reason });
}
