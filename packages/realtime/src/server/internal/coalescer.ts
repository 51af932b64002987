import { APIError, type WithResponse } from '@x/core';
import type { BatchResult, TriggerResult } from '../schemas/events.js';
import { type BatchItem, MAX_EVENTS_PER_BATCH } from './event-input.js';

export interface CoalescerTransport {
  /** `POST /events` for one event. */
  single(item: BatchItem): Promise<WithResponse<TriggerResult>>;
  /** `POST /batch_events` for 2..10 events. */
  batch(items: BatchItem[]): Promise<WithResponse<BatchResult>>;
}

interface Entry {
  /** Pending while the event is still being prepared (encryption is async). */
  item: Promise<BatchItem>;
  resolve(result: WithResponse<TriggerResult>): void;
  reject(error: unknown): void;
}

/**
 * Triggers issued in the same tick leave as `batch_events` calls of up to 10, so a burst of N events costs
 * N/10 requests (and rate-limit slots) instead of N. A lone trigger still goes to `/events`, unchanged.
 *
 * Each caller gets its own outcome: every event of a batch that succeeded resolves with that response; when
 * the service rejects a batch as a whole with 400 or 413 (one bad event spoils it), its events are sent one
 * by one so only the bad one fails. The service refuses a bad batch before publishing any of it (unverified
 * beyond the HTTP API reference saying the request fails), so the resend cannot duplicate events. Batches
 * go out one after another, so events keep the order in which they were triggered.
 */
export class TriggerCoalescer {
  readonly #transport: CoalescerTransport;
  #pending: Entry[] = [];

  constructor(transport: CoalescerTransport) {
    this.#transport = transport;
  }

  add(item: Promise<BatchItem>): Promise<WithResponse<TriggerResult>> {
    // A rejected preparation is reported to its caller by the flush; until then it must not count as unhandled.
    item.catch(() => {});
    return new Promise((resolve, reject) => {
      if (this.#pending.length === 0) queueMicrotask(() => void this.#flush());
      this.#pending.push({ item, resolve, reject });
    });
  }

  async #flush(): Promise<void> {
    const entries = this.#pending;
    this.#pending = [];
    const settled = await Promise.allSettled(entries.map((entry) => entry.item));
    const ready: Array<{ entry: Entry; item: BatchItem }> = [];
    settled.forEach((outcome, i) => {
      const entry = entries[i]!;
      if (outcome.status === 'fulfilled') ready.push({ entry, item: outcome.value });
      else entry.reject(outcome.reason);
    });
    for (let start = 0; start < ready.length; start += MAX_EVENTS_PER_BATCH) {
      await this.#send(ready.slice(start, start + MAX_EVENTS_PER_BATCH));
    }
  }

  async #send(group: Array<{ entry: Entry; item: BatchItem }>): Promise<void> {
    if (group.length === 1) return this.#sendOne(group[0]!);
    try {
      const result = await this.#transport.batch(group.map((g) => g.item));
      for (const { entry } of group) entry.resolve({ ...result, data: {} });
    } catch (error) {
      if (error instanceof APIError && (error.status === 400 || error.status === 413)) {
        for (const member of group) await this.#sendOne(member);
      } else {
        for (const { entry } of group) entry.reject(error);
      }
    }
  }

  async #sendOne({ entry, item }: { entry: Entry; item: BatchItem }): Promise<void> {
    try {
      entry.resolve(await this.#transport.single(item));
    } catch (error) {
      entry.reject(error);
    }
  }
}
