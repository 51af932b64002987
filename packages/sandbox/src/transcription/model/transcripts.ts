import { randomUUID } from 'node:crypto';
import type { TranscriptParams } from './params.js';

export type TranscriptStatus = 'queued' | 'processing' | 'completed' | 'error';

import type { TranscriptWord } from '../derive/types.js';

export type { TranscriptWord };

/** What a finished job adds to its transcript; every field here is wire-shaped already. */
export interface TranscriptResult {
  text: string;
  words: TranscriptWord[];
  confidence: number | null;
  /** Whole seconds, as the service reports it. */
  audio_duration: number;
  utterances: unknown[] | null;
  sentiment_analysis_results: unknown[] | null;
  content_safety_labels: unknown | null;
  entities: unknown[] | null;
  auto_highlights_result: unknown | null;
  iab_categories_result: unknown | null;
  /** The `speech_understanding` object as the service returns it (the request echoed with its `response`). */
  speech_understanding?: unknown;
  /** The legacy `summarization: true` summary, in `summary_type`'s form. */
  summary?: string | null;
  /** A translation task's texts by target language (top-level `translated_texts` on the wire). */
  translated_texts?: Record<string, string>;
  /** With `language_detection`: how sure the detection is, 0..1. */
  language_confidence?: number | null;
  /** Channels in the audio (`multichannel` transcribes each one). */
  audio_channels?: number;
  /** Path of the redacted audio file, when `redact_pii_audio` asked for one. */
  redacted_audio_path?: string;
}

export interface TranscriptRecord {
  id: string;
  /** The API key that created it: transcripts are visible only to their own key (project). */
  key: string;
  seq: number;
  params: TranscriptParams;
  status: TranscriptStatus;
  /** ISO 8601 without a UTC offset, as the service writes list timestamps. */
  created: string;
  completed: string | null;
  error: string | null;
  throttled: boolean;
  /** The id of the upload `audio_url` points at, when it points at one. */
  upload_id: string | null;
  result: TranscriptResult | null;
  webhook_status_code: number | null;
  speech_model_used: string | null;
  deleted: boolean;
}

/** The service's list timestamps: UTC, microseconds, and no offset (`2024-03-11T21:29:59.936851`). */
export function serviceTimestamp(date = new Date()): string {
  return `${date.toISOString().slice(0, 23)}000`;
}

export interface ListQuery {
  limit: number;
  status?: string;
  created_on?: string;
  before_id?: string;
  after_id?: string;
  throttled_only?: boolean;
}

export interface ListPage {
  items: TranscriptRecord[];
  /** The oldest listed item has an older neighbour (a `prev_url`) / the newest a newer one (a `next_url`). */
  hasOlder: boolean;
  hasNewer: boolean;
}

/** Every transcript of the emulator, in creation order, visible per key. */
export class Transcripts {
  readonly #byId = new Map<string, TranscriptRecord>();
  #seq = 0;

  create(key: string, params: TranscriptParams, uploadId: string | null): TranscriptRecord {
    const record: TranscriptRecord = {
      id: randomUUID(),
      key,
      seq: ++this.#seq,
      params,
      status: 'queued',
      created: serviceTimestamp(),
      completed: null,
      error: null,
      throttled: false,
      upload_id: uploadId,
      result: null,
      webhook_status_code: null,
      speech_model_used: null,
      deleted: false,
    };
    this.#byId.set(record.id, record);
    return record;
  }

  /** A transcript known from an earlier run (a data directory); keeps creation order. */
  restore(record: TranscriptRecord): void {
    this.#byId.set(record.id, record);
    this.#seq = Math.max(this.#seq, record.seq);
  }

  /** Removes a transcript that was never acknowledged (it could not be saved). */
  forget(id: string): void {
    this.#byId.delete(id);
  }

  /** Another key's transcript is "not found" too: the service does not confirm it exists. */
  find(key: string, id: string): TranscriptRecord | undefined {
    const record = this.#byId.get(id);
    return record && record.key === key ? record : undefined;
  }

  /** Any key's: for the key-less redacted-audio links. */
  get(id: string): TranscriptRecord | undefined {
    return this.#byId.get(id);
  }

  all(): IterableIterator<TranscriptRecord> {
    return this.#byId.values();
  }

  /** Newest first. `before_id` pages to older transcripts, `after_id` to newer ones, as the service pages. */
  list(key: string, query: ListQuery): ListPage {
    const mine = [...this.#byId.values()]
      .filter((r) => r.key === key)
      .filter((r) => !query.status || r.status === query.status)
      .filter((r) => !query.created_on || r.created.startsWith(query.created_on))
      .filter((r) => !query.throttled_only || r.throttled)
      .sort((a, b) => b.seq - a.seq);
    let from = 0;
    let to = mine.length;
    if (query.before_id) {
      // Another key's id is unknown here, as in `find`: no page may reveal that it exists or where it sorts.
      const anchor = this.find(key, query.before_id);
      from = anchor ? mine.findIndex((r) => r.seq < anchor.seq) : mine.length;
      if (from === -1) from = mine.length;
    }
    if (query.after_id) {
      const anchor = this.find(key, query.after_id);
      const newer = anchor ? mine.filter((r) => r.seq > anchor.seq).length : 0;
      to = Math.min(to, newer);
      // The page next to the anchor: the `limit` oldest of the newer ones.
      from = Math.max(from, to - query.limit);
    }
    const items = mine.slice(from, Math.min(to, from + query.limit));
    const last = from + items.length;
    return { items, hasOlder: last < mine.length, hasNewer: from > 0 };
  }

  clear(): void {
    this.#byId.clear();
  }
}
