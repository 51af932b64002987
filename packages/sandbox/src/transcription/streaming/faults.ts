/**
 * The streaming emulator's injectable faults, for testing clients: refused connects (the next N sessions are
 * closed at once with a documented code and its `Error` frame). Dropping and stalling act on live sessions and
 * live in the handle.
 */
import { CLOSE, MESSAGE } from './closures.js';

/** The close codes a refusal may use (spelled out: the public type must not name the internal code table). */
export type RefusalCode = 1008 | 3005 | 3009;

export interface StreamingRefusal {
  /** How many connects it refuses. Default 1. */
  times?: number;
  /** 1008 (an account problem), 3005 (a server error) or 3009 (too many sessions, the default). */
  code?: RefusalCode;
  /** Default: the documented message of the code. */
  message?: string;
}

const DEFAULT_MESSAGE: Record<RefusalCode, string> = {
  [CLOSE.unauthorized]: 'Unauthorized Connection: Account temporarily disabled',
  [CLOSE.serverError]: MESSAGE.serverError,
  [CLOSE.tooManySessions]: MESSAGE.tooManySessions,
};

export class RefusalQueue {
  #entries: { code: RefusalCode; message: string; remaining: number }[] = [];

  inject(refusal: StreamingRefusal = {}): void {
    const code = refusal.code ?? CLOSE.tooManySessions;
    if (!(code in DEFAULT_MESSAGE))
      throw new RangeError(`refuseSessions: code must be 1008, 3005 or 3009, got ${code}`);
    const times = refusal.times ?? 1;
    if (times > 0)
      this.#entries.push({ code, message: refusal.message ?? DEFAULT_MESSAGE[code], remaining: times });
  }

  take(): { code: RefusalCode; message: string } | undefined {
    const entry = this.#entries[0];
    if (!entry) return undefined;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.#entries.shift();
    return { code: entry.code, message: entry.message };
  }

  clear(): void {
    this.#entries = [];
  }
}
