import { XError } from './errors.js';

/**
 * Base of the client-side idempotency errors. None carries the key itself: keys are often built from
 * user data (an order number, an e-mail, a file name), so errors and logs name it by `keyHash`, the
 * first 16 hex digits of its SHA-256, which the caller can compute to correlate.
 */
export class IdempotencyError extends XError {
  static override readonly brand: string = 'IdempotencyError';
  readonly keyHash: string;
  constructor(message: string, init: { keyHash: string; cause?: unknown }) {
    super(`${message} (idempotencyKey sha256:${init.keyHash})`, { cause: init.cause });
    this.keyHash = init.keyHash;
  }
  override toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message, keyHash: this.keyHash };
  }
}

/** The key was used before with different parameters: one key means one request. Nothing was sent. */
export class IdempotencyConflictError extends IdempotencyError {
  static override readonly brand: string = 'IdempotencyConflictError';
}

/** The idempotency store failed (unreachable, timed out, error reply). Nothing was sent for this call. */
export class IdempotencyStoreError extends IdempotencyError {
  static override readonly brand: string = 'IdempotencyStoreError';
  /** Which store, e.g. `redis://10.0.0.5:6379`; never a password. */
  readonly store: string;
  constructor(message: string, init: { keyHash: string; store: string; cause: unknown }) {
    super(message, init);
    this.store = init.store;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), store: this.store };
  }
}

/** Another caller held the key for longer than this call would wait. Nothing was sent by this call. */
export class IdempotencyPendingError extends IdempotencyError {
  static override readonly brand: string = 'IdempotencyPendingError';
}

/**
 * An earlier attempt may have reached the service without its answer arriving, and recovery found more
 * than one job that could be it. Rather than guess (or submit a third), the call fails naming them.
 */
export class IdempotencyAmbiguousError extends IdempotencyError {
  static override readonly brand: string = 'IdempotencyAmbiguousError';
  readonly candidates: readonly string[];
  constructor(message: string, init: { keyHash: string; candidates: readonly string[] }) {
    super(`${message}: ${init.candidates.join(', ')}`, init);
    this.candidates = init.candidates;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), candidates: this.candidates };
  }
}
