/**
 * Where idempotency keys are remembered: `MemoryIdempotencyStore` here (one process), the Redis store
 * behind `@x/core/redis` (every process on one Redis). Both implement the same four atomic steps, so
 * `runIdempotent()` (idempotency.ts) decides the same way over either.
 *
 * A record is `pending` while its owner (a random token per call) holds a lease, and `done` once the
 * owner recorded the service's id. Stores only ever see the SHA-256 of a key, never the key itself.
 */
import { ValidationError } from './base/errors.js';

export interface IdempotencyRecord {
  state: 'pending' | 'done';
  /** SHA-256 of the request the key was first used for. */
  fingerprint: string;
  /** Store clock (ms since the epoch) of the first reservation: no attempt was sent before it. */
  since: number;
  /** Store clock (ms) when a pending owner's lease ends; 0 once the owner gave up with its outcome unknown. */
  lease_until: number;
  owner: string;
  /** What each attempt sends that the service's list shows again (e.g. `audio_url`), for recovery. */
  sent: string[];
  /** Reservations so far (a takeover after a lease ran out counts again). */
  attempts: number;
  /** The service's id, once done. */
  result?: string;
}

export type ReserveResult =
  /** This call owns the key. `previous`: an earlier owner's record this call took over; it may have sent. */
  | { outcome: 'reserved'; record: IdempotencyRecord; previous?: IdempotencyRecord }
  | { outcome: 'pending' | 'done' | 'conflict'; record: IdempotencyRecord };

export interface ReserveRequest {
  owner: string;
  fingerprint: string;
  sent: string;
  leaseMs: number;
  /** How long the record is kept from its last change. */
  ttlMs: number;
}

export interface IdempotencyStore {
  /** Which store, for messages; never a password. */
  readonly description: string;
  /**
   * Atomically: creates a pending record owned by `owner`, or takes over a pending one whose lease ended,
   * or answers the record that stands (`pending`, `done`, or `conflict` when the fingerprint differs).
   */
  reserve(keyHash: string, request: ReserveRequest): Promise<ReserveResult>;
  /** Marks the owner's pending record done with `result`; false when `owner` no longer owns it. */
  complete(keyHash: string, owner: string, result: string, ttlMs: number): Promise<boolean>;
  /**
   * The owner gives the key up. `unsent`: provably nothing reached the service, so a record of only this
   * attempt is deleted. `unknown`: the lease ends now and the record stays, so the next caller recovers.
   */
  release(keyHash: string, owner: string, outcome: 'unsent' | 'unknown'): Promise<void>;
  get(keyHash: string): Promise<IdempotencyRecord | undefined>;
}

/** The decision `reserve` makes, shared by the memory store and mirrored by the Redis store's Lua. */
export function decideReserve(
  current: IdempotencyRecord | undefined,
  request: ReserveRequest,
  now: number,
): ReserveResult {
  const lease_until = now + request.leaseMs;
  if (!current) {
    const record: IdempotencyRecord = {
      state: 'pending',
      fingerprint: request.fingerprint,
      since: now,
      lease_until,
      owner: request.owner,
      sent: [request.sent],
      attempts: 1,
    };
    return { outcome: 'reserved', record };
  }
  if (current.fingerprint !== request.fingerprint) return { outcome: 'conflict', record: current };
  if (current.state === 'done') return { outcome: 'done', record: current };
  if (current.lease_until > now) return { outcome: 'pending', record: current };
  const sent = current.sent.includes(request.sent) ? current.sent : [...current.sent, request.sent];
  const record = { ...current, owner: request.owner, lease_until, sent, attempts: current.attempts + 1 };
  return { outcome: 'reserved', record, previous: current };
}

/**
 * Keys of one process, expiring `ttlMs` after their last change. `maxEntries` bounds it for a long-lived
 * process that sees unbounded keys (a webhook receiver): past it, the least recently changed key is dropped.
 */
export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly description = 'memory';
  // Insertion order is age: a write deletes and re-adds, so the first key is the least recently changed.
  readonly #records = new Map<string, { record: IdempotencyRecord; expires: number }>();
  readonly #now: () => number;
  readonly #max: number;

  constructor(options: { now?: () => number; maxEntries?: number } = {}) {
    const max = options.maxEntries ?? Number.POSITIVE_INFINITY;
    if (max !== Number.POSITIVE_INFINITY && (!Number.isSafeInteger(max) || max < 1)) {
      throw new ValidationError('MemoryIdempotencyStore options', [
        { path: 'maxEntries', message: 'expected a positive integer' },
      ]);
    }
    this.#max = max;
    this.#now = options.now ?? Date.now;
  }

  /** Keys held now, expired ones not yet swept included. */
  get size(): number {
    return this.#records.size;
  }

  async reserve(keyHash: string, request: ReserveRequest): Promise<ReserveResult> {
    const result = decideReserve(this.#read(keyHash), request, this.#now());
    if (result.outcome === 'reserved') this.#write(keyHash, result.record, request.ttlMs);
    return result;
  }

  async complete(keyHash: string, owner: string, result: string, ttlMs: number): Promise<boolean> {
    const current = this.#read(keyHash);
    if (current?.state !== 'pending' || current.owner !== owner) return false;
    this.#write(keyHash, { ...current, state: 'done', result }, ttlMs);
    return true;
  }

  async release(keyHash: string, owner: string, outcome: 'unsent' | 'unknown'): Promise<void> {
    const entry = this.#records.get(keyHash);
    const current = this.#read(keyHash);
    if (!entry || !current || current.state !== 'pending' || current.owner !== owner) return;
    if (outcome === 'unsent' && current.attempts === 1) this.#records.delete(keyHash);
    else entry.record = { ...current, lease_until: 0 };
  }

  async get(keyHash: string): Promise<IdempotencyRecord | undefined> {
    return this.#read(keyHash);
  }

  #read(keyHash: string): IdempotencyRecord | undefined {
    const entry = this.#records.get(keyHash);
    if (entry && entry.expires <= this.#now()) this.#records.delete(keyHash);
    else return entry?.record;
    return undefined;
  }

  #write(keyHash: string, record: IdempotencyRecord, ttlMs: number): void {
    this.#records.delete(keyHash);
    this.#records.set(keyHash, { record, expires: this.#now() + ttlMs });
    for (const oldest of this.#records.keys()) {
      if (this.#records.size <= this.#max) break;
      this.#records.delete(oldest);
    }
  }
}
