import type { TurnEvent } from '../schemas/streaming-messages.js';
import { StreamingError } from './errors.js';

/**
 * The turns of `for await (const turn of transcriber)`, waiting for a consumer in a bounded queue. A slow
 * consumer loses partial turns first (each is superseded by the next one of its turn anyway); if final
 * turns alone fill the queue, the iteration ends with an error rather than dropping one or growing.
 */
export class TurnStream implements AsyncIterableIterator<TurnEvent> {
  #items: TurnEvent[] = [];
  /** Every `next()` waiting for a turn, oldest first (calls in flight at once each get their own). */
  #waiting: { resolve(result: IteratorResult<TurnEvent>): void; reject(error: unknown): void }[] = [];
  #done = false;
  #error: unknown;

  constructor(readonly capacity: number) {}

  push(turn: TurnEvent): void {
    if (this.#done) return;
    const waiter = this.#waiting.shift();
    if (waiter) {
      waiter.resolve({ value: turn, done: false });
      return;
    }
    if (this.#items.length >= this.capacity) {
      const partial = this.#items.findIndex((t) => !t.end_of_turn);
      if (partial !== -1) this.#items.splice(partial, 1);
      else {
        this.end(
          new StreamingError(
            `the turn iterator fell ${this.capacity} final turns behind: read it faster or use the "turn" event`,
          ),
        );
        return;
      }
    }
    this.#items.push(turn);
  }

  /** No more turns: the iteration ends once the queued ones are read, or throws `error`. */
  end(error?: unknown): void {
    if (this.#done) return;
    this.#done = true;
    this.#error = error;
    const waiting = this.#waiting;
    this.#waiting = [];
    // The error goes to one reader, as a pending read would have taken it; the others end.
    for (const waiter of waiting) {
      if (this.#error === undefined) waiter.resolve({ value: undefined, done: true });
      else {
        waiter.reject(this.#error);
        this.#error = undefined;
      }
    }
  }

  next(): Promise<IteratorResult<TurnEvent>> {
    const turn = this.#items.shift();
    if (turn) return Promise.resolve({ value: turn, done: false });
    if (this.#done) {
      const error = this.#error;
      this.#error = undefined;
      return error === undefined ? Promise.resolve({ value: undefined, done: true }) : Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
    });
  }

  /** `break` out of the loop: stops queueing (the transcriber goes on; close it separately). */
  return(): Promise<IteratorResult<TurnEvent>> {
    this.#items = [];
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
