import type { TurnEvent } from '../schemas/streaming-messages.js';
import { StreamingError } from './errors.js';

/**
 * The turns of `for await (const turn of transcriber)`, waiting for a consumer in a bounded queue. A slow
 * consumer loses partial turns first (each is superseded by the next one of its turn anyway); if final
 * turns alone fill the queue, the iteration ends with an error rather than dropping one or growing.
 */
export class TurnStream implements AsyncIterableIterator<TurnEvent> {
  #items: TurnEvent[] = [];
  #waiting: ((result: IteratorResult<TurnEvent>) => void) | undefined;
  #failWaiting: ((error: unknown) => void) | undefined;
  #done = false;
  #error: unknown;

  constructor(readonly capacity: number) {}

  push(turn: TurnEvent): void {
    if (this.#done) return;
    if (this.#waiting) {
      const resolve = this.#waiting;
      this.#waiting = this.#failWaiting = undefined;
      resolve({ value: turn, done: false });
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
    if (error !== undefined && this.#failWaiting) this.#failWaiting(error);
    else this.#waiting?.({ value: undefined, done: true });
    this.#waiting = this.#failWaiting = undefined;
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
      this.#waiting = resolve;
      this.#failWaiting = reject;
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
