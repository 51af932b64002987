import type { LiveTurnEvent } from '../../shared/api.js';

/**
 * Pusher refuses an event whose data passes 10 KB; this leaves room for the envelope. A turn's text is
 * bounded by the route's schema, yet a long turn of multi-byte characters can still pass it.
 */
export const MAX_EVENT_BYTES = 9 * 1024;

const encoder = new TextEncoder();
const bytes = (event: LiveTurnEvent) => encoder.encode(JSON.stringify(event)).length;

/**
 * The event as it fits in `MAX_EVENT_BYTES`: a text too long loses its beginning (the other tabs follow the
 * latest words; the server keeps the whole turn for the analysis).
 */
export function fitEvent(event: LiveTurnEvent, maxBytes = MAX_EVENT_BYTES): LiveTurnEvent {
  if (bytes(event) <= maxBytes) return event;
  let text = event.text;
  let fitted = event;
  while (bytes(fitted) > maxBytes && text.length > 0) {
    text = text.slice(Math.max(1, Math.ceil(text.length / 8)));
    fitted = { ...event, text: `…${text}` };
  }
  return fitted;
}

export interface RelayTimers {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const systemTimers: RelayTimers = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Pushes one live call's turns to the other tabs, one push at a time so they arrive in order. Finals go at
 * once; partials at most one per `intervalMs`, a newer one replacing the one waiting (it says all the older
 * one said), and a final drops the partial waiting for its turn or an earlier one. `push` must not throw.
 */
export class TurnRelay {
  #chain: Promise<void> = Promise.resolve();
  #waiting: LiveTurnEvent | null = null;
  #timer: unknown = null;
  #lastPartialAt = Number.NEGATIVE_INFINITY;
  #closed = false;

  constructor(
    private readonly push: (event: LiveTurnEvent) => Promise<void>,
    private readonly intervalMs: number,
    private readonly timers: RelayTimers = systemTimers,
  ) {}

  final(event: LiveTurnEvent): void {
    if (this.#closed) return;
    if (this.#waiting && this.#waiting.turn_order <= event.turn_order) this.#cancelPartial();
    this.#send(event);
  }

  partial(event: LiveTurnEvent): void {
    if (this.#closed) return;
    this.#waiting = event;
    if (this.#timer !== null) return;
    const wait = this.#lastPartialAt + this.intervalMs - this.timers.now();
    if (wait <= 0) this.#sendPartial();
    else this.#timer = this.timers.setTimeout(() => this.#sendPartial(), wait);
  }

  /** Drops the partial waiting and resolves once every push begun has ended. Idempotent. */
  close(): Promise<void> {
    this.#closed = true;
    this.#cancelPartial();
    return this.#chain;
  }

  #sendPartial(): void {
    this.#timer = null;
    const event = this.#waiting;
    this.#waiting = null;
    if (!event || this.#closed) return;
    this.#lastPartialAt = this.timers.now();
    this.#send(event);
  }

  #cancelPartial(): void {
    if (this.#timer !== null) this.timers.clearTimeout(this.#timer);
    this.#timer = null;
    this.#waiting = null;
  }

  #send(event: LiveTurnEvent): void {
    const fitted = fitEvent(event);
    this.#chain = this.#chain.then(() => this.push(fitted));
  }
}
