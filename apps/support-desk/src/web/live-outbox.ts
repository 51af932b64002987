import type { LiveTurnInput } from '../shared/api.js';
import { LIVE_TURN_LIMITS } from '../shared/live-transcript.js';

export interface OutboxOptions {
  /** Posts turns to the app server, in order; rejects with the server's error (`status`, `retryAfterMs`). */
  send(turns: LiveTurnInput[]): Promise<unknown>;
  /** A batch the server refused, or that could not be sent after a few tries; the outbox goes on. */
  onError(error: unknown): void;
  /** Least time between two requests that carry nothing but a partial (ms). Default 100. */
  partialSpacingMs?: number;
  /** Tries of a batch that fails on the network (status 0) or with a 5xx. Default 3. */
  tries?: number;
}

/** Encoded size of one request's turns, under the server's 64 KB body limit with room to spare. */
const MAX_BATCH_BYTES = 48 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function failure(error: unknown): { status: number; retryAfterMs: number | undefined } {
  const e = error as { status?: unknown; retryAfterMs?: unknown };
  return {
    status: typeof e?.status === 'number' ? e.status : 0,
    retryAfterMs: typeof e?.retryAfterMs === 'number' ? e.retryAfterMs : undefined,
  };
}

/**
 * The turns a tab relays to the app server, one request at a time so they arrive in order. Final turns
 * all go, in order; of the partials only the latest waits (it says all the older ones said), and a final
 * drops the partial of its turn. What waits while a request is out goes in the next one, so a slow server
 * gets fewer, larger requests instead of a backlog. A 429 is waited out; a network failure or a 5xx is
 * tried again a few times; anything else is reported and dropped.
 */
export class TurnOutbox {
  #finals: LiveTurnInput[] = [];
  #partial: LiveTurnInput | null = null;
  #running: Promise<void> | null = null;
  readonly #spacingMs: number;
  readonly #tries: number;

  constructor(private readonly o: OutboxOptions) {
    this.#spacingMs = o.partialSpacingMs ?? 100;
    this.#tries = o.tries ?? 3;
  }

  push(turn: LiveTurnInput): void {
    if (turn.end_of_turn) {
      this.#finals.push(turn);
      if (this.#partial && this.#partial.turn_order <= turn.turn_order) this.#partial = null;
    } else {
      this.#partial = turn;
    }
    this.#running ??= this.#drain().finally(() => {
      this.#running = null;
    });
  }

  /** Resolves once every turn pushed so far has been sent (or given up on). */
  async flush(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async #drain(): Promise<void> {
    while (this.#finals.length > 0 || this.#partial) {
      const batch = this.#take();
      const onlyPartial = batch.every((t) => !t.end_of_turn);
      await this.#deliver(batch);
      if (onlyPartial && this.#finals.length === 0) await sleep(this.#spacingMs);
    }
  }

  /** The finals that waited (within the request's bounds), then the latest partial if there is room. */
  #take(): LiveTurnInput[] {
    const batch: LiveTurnInput[] = [];
    let bytes = 0;
    while (this.#finals.length > 0 && batch.length < LIVE_TURN_LIMITS.maxTurnsPerRelay) {
      const size = JSON.stringify(this.#finals[0]).length;
      if (batch.length > 0 && bytes + size > MAX_BATCH_BYTES) break;
      batch.push(this.#finals.shift()!);
      bytes += size;
    }
    const partial = this.#partial;
    if (partial && batch.length < LIVE_TURN_LIMITS.maxTurnsPerRelay && this.#finals.length === 0) {
      batch.push(partial);
      this.#partial = null;
    }
    return batch;
  }

  async #deliver(batch: LiveTurnInput[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.o.send(batch);
        return;
      } catch (error) {
        const { status, retryAfterMs } = failure(error);
        const transient = status === 0 || status >= 500;
        if (status === 429 && attempt <= this.#tries) {
          await sleep(retryAfterMs ?? 1000);
        } else if (transient && attempt < this.#tries) {
          await sleep(250 * 2 ** attempt);
        } else {
          this.o.onError(error);
          return;
        }
        // A partial that came meanwhile says more than the one in this batch.
        if (this.#partial) batch = batch.filter((t) => t.end_of_turn);
        if (batch.length === 0) return;
      }
    }
  }
}
