import type { JobPool } from '../model/jobs.js';
import type { Transcripts } from '../model/transcripts.js';
import type { Uploads } from '../model/uploads.js';
import type { ParamsBody } from './params-body.js';

/** What the route handlers share: the emulator's state and limits. */
export interface TranscriptionService {
  transcripts: Transcripts;
  uploads: Uploads;
  jobs: JobPool;
  maxUploadBytes: number;
  /** The emulator's public base URL (no trailing slash), for `upload_url`, `resource_url` and paging links. */
  baseUrl(): string;
  /** Journals a changed transcript when the emulator has a data directory (no-op otherwise). */
  save(record: import('../model/transcripts.js').TranscriptRecord): void;
}

/** One authenticated API call. */
export interface Call {
  key: string;
  method: string;
  /** The path below `/v2`, split: `['transcript', '<id>', 'sentences']`. */
  segments: string[];
  query: URLSearchParams;
  request: Request;
  /** `POST /v2/transcript`'s body, read once by the emulator (its model picks the rate window). */
  body?: ParamsBody;
}
