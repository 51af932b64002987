import { randomUUID } from 'node:crypto';
import type { CallAnalysis, CallDetail, CallStatus, CallView, LiveTranscriptView } from '../../shared/api.js';

export interface CallRecord extends CallView {
  analysis: CallAnalysis | null;
  /** A live call's transcript as it ended (while it runs, the live-call registry has it). */
  live: LiveTranscriptView | null;
}

/** What may change on a call after it is created (its id, name, source and creation time never do). */
export type CallChange = Partial<Omit<CallRecord, 'id' | 'name' | 'source' | 'createdAt'>>;

/**
 * The desk's calls, newest first, at most `limit` (older ones are forgotten). Every method is async because
 * the calls live in a database: a call is written before its id is returned, and a change is written before
 * `update` resolves, so callers announce a change (realtime events) only once it is stored.
 */
export class CallRegistry {
  readonly #calls = new Map<string, CallRecord>();

  constructor(private readonly limit = 50) {}

  async create(
    name: string,
    source: CallView['source'],
    status: CallStatus = 'receiving',
  ): Promise<CallRecord> {
    const call: CallRecord = {
      id: randomUUID(),
      name,
      source,
      status,
      progress: 0,
      createdAt: new Date().toISOString(),
      transcriptId: null,
      error: null,
      completedBy: null,
      overall: null,
      summary: null,
      analysis: null,
      live: null,
    };
    this.#calls.set(call.id, call);
    for (const id of this.#calls.keys()) {
      if (this.#calls.size <= this.limit) break;
      this.#calls.delete(id);
    }
    return call;
  }

  /** Applies `change` to `call` (the caller's copy too) and stores it. */
  async update(call: CallRecord, change: CallChange): Promise<void> {
    Object.assign(call, change);
  }

  async get(id: string): Promise<CallRecord | undefined> {
    return this.#calls.get(id);
  }

  async byTranscript(transcriptId: string): Promise<CallRecord | undefined> {
    for (const call of this.#calls.values()) if (call.transcriptId === transcriptId) return call;
    return undefined;
  }

  async list(): Promise<CallView[]> {
    return [...this.#calls.values()].reverse().map(view);
  }
}

/** A call without its analysis: what realtime events carry (Pusher's events are at most 10 KB). */
export function view(call: CallRecord): CallView {
  const { analysis: _analysis, live: _live, ...rest } = call;
  return rest;
}

/** The call with its analysis and, for a live call, its transcript (`live`, when still running). */
export function detail(call: CallRecord, live: LiveTranscriptView | null = null): CallDetail {
  return { ...call, live: live ?? call.live };
}

export function isFinished(status: CallStatus): boolean {
  return status === 'done' || status === 'error';
}
