/**
 * Client-side idempotency for services that have no idempotency key of their own: a key → result id
 * record in an `IdempotencyStore`, so that a repeated or retried call with the same key returns the
 * first call's result instead of creating (and billing) a second one.
 *
 * The first caller reserves the key (pending, its own owner token, a lease) and sends; on success it
 * records the id. A caller that finds the key done fetches that id; one that finds it pending waits
 * (bounded, honouring its signal) for the owner to finish or its lease to end. The hard case is an
 * owner that sent but never learnt the answer (response dropped, process died): the request may or may
 * not have reached the service. Its record stays pending (lease ended at once, or run out), and the next
 * caller takes it over and first asks the service (`recover`) for work sent since the reservation that
 * matches what was sent: exactly one match is adopted, none means the request never arrived and it is
 * sent now, several fail with `IdempotencyAmbiguousError` naming them.
 */
import {
  AbortError,
  APIError,
  ConnectionError,
  RateLimitQueueError,
  RateLimitStoreError,
  ValidationError,
  type ValidationIssue,
} from './errors.js';
import {
  IdempotencyAmbiguousError,
  IdempotencyConflictError,
  IdempotencyPendingError,
  IdempotencyStoreError,
} from './idempotency-errors.js';
import type { IdempotencyRecord, IdempotencyStore, ReserveResult } from './idempotency-store.js';
import { sleepUnlessAborted } from './sleep.js';

export const DEFAULT_IDEMPOTENCY_LEASE_MS = 120_000;
export const DEFAULT_IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;
/** Longest key accepted: stores hash keys, but an unbounded one would still cost hashing and memory. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** Kept off the lease's end, so a send bounded by the lease ends before another caller may take over. */
const LEASE_SAFETY_MS = 2_000;

/** Why `key` is not a usable idempotency key, or undefined when it is. Checked before any request. */
export function idempotencyKeyIssue(key: unknown, path = 'idempotencyKey'): ValidationIssue | undefined {
  if (typeof key !== 'string')
    return { path, message: `must be a string, got ${key === null ? 'null' : typeof key}` };
  if (key.trim() === '') return { path, message: 'must not be empty or only whitespace' };
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    return { path, message: `must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters, got ${key.length}` };
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
  if (/[\u0000-\u001f\u007f]/.test(key)) return { path, message: 'must not contain control characters' };
  // A lone surrogate encodes as U+FFFD, so two different keys would hash alike.
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(key))
    return { path, message: 'must be well-formed Unicode (no lone surrogates)' };
  return undefined;
}

/** Lowercase hex SHA-256 of a string, on Web Crypto (Node 20+, browsers, workers). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** JSON with object keys sorted at every depth, so equal requests hash equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/**
 * True when `error` proves the request never created anything at the service: refused before sending,
 * a refused connection, or an error answer (4xx) from the service. A 5xx, a timeout, a lost connection
 * or an abort mid-flight prove nothing.
 */
export function provablyUnsent(error: unknown): boolean {
  if (
    error instanceof ValidationError ||
    error instanceof RateLimitQueueError ||
    error instanceof RateLimitStoreError
  )
    return true;
  if (error instanceof ConnectionError) return error.unsent;
  return error instanceof APIError && error.status >= 400 && error.status < 500;
}

export interface IdempotentCall<T> {
  store: IdempotencyStore;
  key: string;
  /** What the request is; a later use of the key with a different fingerprint is a conflict. */
  fingerprint: unknown;
  /** What the service will show again for recovery to match (e.g. the `audio_url`). */
  sent: string;
  leaseMs?: number | undefined;
  ttlMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Sends the request; `deadlineMs` (local clock, ms since the epoch) is when the lease runs out. */
  send(deadlineMs: number): Promise<{ id: string; value: T }>;
  /** Ids of work at the service that an earlier attempt of `record` may have created. */
  recover(record: IdempotencyRecord): Promise<readonly string[]>;
  /** The result of an earlier call, by id. */
  fetch(id: string): Promise<T>;
}

/** Runs `call.send()` at most once per key across every caller sharing `call.store`; see the module comment. */
export async function runIdempotent<T>(call: IdempotentCall<T>): Promise<T> {
  const keyHash = await sha256Hex(call.key);
  const label = keyHash.slice(0, 16);
  const fingerprint = await sha256Hex(canonicalJson(call.fingerprint));
  const owner = `${Date.now().toString(36)}.${crypto.getRandomValues(new Uint32Array(2)).join('.')}`;
  const leaseMs = call.leaseMs ?? DEFAULT_IDEMPOTENCY_LEASE_MS;
  const ttlMs = call.ttlMs ?? DEFAULT_IDEMPOTENCY_TTL_MS;
  const store = <R>(work: () => Promise<R>): Promise<R> =>
    work().catch((cause: unknown) => {
      throw new IdempotencyStoreError('The idempotency store failed; nothing was sent', {
        keyHash: label,
        store: call.store.description,
        cause,
      });
    });
  // The owner may take as long as its lease, so a waiter waits that long and a little more.
  const waitUntil = Date.now() + leaseMs + LEASE_SAFETY_MS;
  let pause = 50;
  for (;;) {
    throwIfAborted(call.signal, label);
    const reservedAt = Date.now();
    const reserved: ReserveResult = await store(() =>
      call.store.reserve(keyHash, { owner, fingerprint, sent: call.sent, leaseMs, ttlMs }),
    );
    switch (reserved.outcome) {
      case 'conflict':
        throw new IdempotencyConflictError(
          'This idempotencyKey was used for a request with different parameters',
          {
            keyHash: label,
          },
        );
      case 'done':
        return call.fetch(reserved.record.result!);
      case 'reserved':
        return own(call, reserved, {
          keyHash,
          label,
          owner,
          ttlMs,
          deadline: reservedAt + leaseMs - LEASE_SAFETY_MS,
        });
    }
    if (Date.now() + pause > waitUntil) {
      throw new IdempotencyPendingError(`Another call held this idempotencyKey for over ${leaseMs} ms`, {
        keyHash: label,
      });
    }
    await sleepUnlessAborted(
      pause * (0.5 + Math.random() / 2),
      call.signal,
      () =>
        new AbortError(`Aborted while waiting for idempotencyKey sha256:${label}`, {
          cause: call.signal?.reason,
        }),
    );
    pause = Math.min(pause * 1.5, 1_000);
  }
}

async function own<T>(
  call: IdempotentCall<T>,
  reserved: Extract<ReserveResult, { outcome: 'reserved' }>,
  at: { keyHash: string; label: string; owner: string; ttlMs: number; deadline: number },
): Promise<T> {
  const release = (outcome: 'unsent' | 'unknown') =>
    call.store.release(at.keyHash, at.owner, outcome).catch(() => {
      // Unreleased, the record stays pending until its lease ends; then the next caller recovers.
    });
  if (reserved.previous) {
    let candidates: readonly string[];
    try {
      candidates = await call.recover(reserved.record);
    } catch (error) {
      await release('unknown');
      throw error;
    }
    if (candidates.length > 1) {
      await release('unknown');
      throw new IdempotencyAmbiguousError(
        'An earlier attempt with this idempotencyKey may have reached the service, and several jobs match it',
        { keyHash: at.label, candidates },
      );
    }
    if (candidates.length === 1) {
      await call.store.complete(at.keyHash, at.owner, candidates[0]!, at.ttlMs).catch(() => false);
      return call.fetch(candidates[0]!);
    }
  }
  let sent: { id: string; value: T };
  try {
    sent = await call.send(at.deadline);
  } catch (error) {
    await release(provablyUnsent(error) ? 'unsent' : 'unknown');
    throw error;
  }
  // A failed write leaves the record pending: once the lease ends, the next caller recovers this id.
  const recorded = await call.store.complete(at.keyHash, at.owner, sent.id, at.ttlMs).catch(() => true);
  if (recorded) return sent.value;
  // The lease ran out and another caller took the key over: everyone answers with the id it recorded.
  const record = await call.store.get(at.keyHash).catch(() => undefined);
  return record?.state === 'done' && record.result && record.result !== sent.id
    ? call.fetch(record.result)
    : sent.value;
}

function throwIfAborted(signal: AbortSignal | undefined, label: string): void {
  if (signal?.aborted) {
    throw new AbortError(`Aborted while waiting for idempotencyKey sha256:${label}`, {
      cause: signal.reason,
    });
  }
}
