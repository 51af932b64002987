import { valueDeeperThan } from '../../kit/json-depth.js';
import { MAX_JSON_DEPTH } from './json-body.js';
import type { TranscriptRecord } from './transcripts.js';
import type { UploadRecord } from './uploads.js';

/**
 * The shapes a data directory's `transcripts.json` and journal must have before anything is loaded from them.
 * Why check: a hand-edited or foreign file would otherwise fail deep inside the emulator ("Cannot read
 * properties of null") or, worse, load and break requests later; a message naming the field lets the user fix
 * the file. Each function answers what is wrong, or null.
 */

const STATUSES = new Set(['queued', 'processing', 'completed', 'error']);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const show = (v: unknown): string => {
  if (v === undefined) return 'missing';
  let text: string;
  try {
    text = JSON.stringify(v) ?? String(v);
  } catch {
    text = typeof v; // nested too deep to print
  }
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
};

/**
 * The first field of a record nested deeper than a request body may be (params are a body; results are a few
 * levels), named for the message. Checked before anything else reads the record.
 */
function tooDeep(r: Record<string, unknown>, at: string): string | null {
  for (const [field, value] of Object.entries(r)) {
    if (valueDeeperThan(value, MAX_JSON_DEPTH))
      return `${at}.${field} nests deeper than ${MAX_JSON_DEPTH} levels`;
  }
  return null;
}

export function transcriptProblem(r: unknown, at: string): string | null {
  if (!isObject(r)) return `${at} is not a transcript record (${show(r)})`;
  const deep = tooDeep(r, at);
  if (deep) return deep;
  for (const field of ['id', 'key', 'created'] as const) {
    if (typeof r[field] !== 'string') return `${at}.${field} is not a string (${show(r[field])})`;
  }
  if (!Number.isSafeInteger(r.seq)) return `${at}.seq is not an integer (${show(r.seq)})`;
  if (typeof r.status !== 'string' || !STATUSES.has(r.status)) {
    return `${at}.status is not one of queued, processing, completed, error (${show(r.status)})`;
  }
  for (const field of ['throttled', 'deleted'] as const) {
    if (typeof r[field] !== 'boolean') return `${at}.${field} is not a boolean (${show(r[field])})`;
  }
  for (const field of ['upload_id', 'completed', 'error', 'speech_model_used'] as const) {
    if (r[field] !== null && typeof r[field] !== 'string') {
      return `${at}.${field} is neither a string nor null (${show(r[field])})`;
    }
  }
  if (r.webhook_status_code !== null && !Number.isInteger(r.webhook_status_code)) {
    return `${at}.webhook_status_code is neither an integer nor null (${show(r.webhook_status_code)})`;
  }
  const params = r.params;
  if (!isObject(params)) return `${at}.params is not an object (${show(params)})`;
  if (typeof params.audio_url !== 'string') {
    return `${at}.params.audio_url is not a string (${show(params.audio_url)})`;
  }
  if (!Array.isArray(params.speech_models) || !params.speech_models.every((m) => typeof m === 'string')) {
    return `${at}.params.speech_models is not an array of strings (${show(params.speech_models)})`;
  }
  const result = r.result;
  if (result !== null) {
    if (!isObject(result)) return `${at}.result is neither an object nor null (${show(result)})`;
    if (typeof result.text !== 'string') return `${at}.result.text is not a string (${show(result.text)})`;
    if (!Array.isArray(result.words) || !result.words.every(isWord)) {
      return `${at}.result.words is not an array of words ({text, start, end, confidence})`;
    }
  }
  return null;
}

function isWord(w: unknown): boolean {
  return (
    isObject(w) &&
    typeof w.text === 'string' &&
    typeof w.start === 'number' &&
    typeof w.end === 'number' &&
    typeof w.confidence === 'number'
  );
}

export function uploadProblem(u: unknown, at: string): string | null {
  if (!isObject(u)) return `${at} is not an upload record (${show(u)})`;
  const deep = tooDeep(u, at);
  if (deep) return deep;
  for (const field of ['id', 'key', 'path'] as const) {
    if (typeof u[field] !== 'string') return `${at}.${field} is not a string (${show(u[field])})`;
  }
  if (typeof u.bytes !== 'number') return `${at}.bytes is not a number (${show(u.bytes)})`;
  return null;
}

export interface Snapshot {
  version: 1;
  seq: number;
  transcripts: TranscriptRecord[];
  uploads: UploadRecord[];
}

export function snapshotProblem(s: unknown): string | null {
  if (!isObject(s)) return `it is not a JSON object (${show(s)})`;
  if (s.version !== 1) return `unknown version ${show(s.version)}`;
  if (!Number.isSafeInteger(s.seq) || (s.seq as number) < 0) return `seq is not an integer (${show(s.seq)})`;
  if (!Array.isArray(s.transcripts)) return `transcripts is not an array (${show(s.transcripts)})`;
  if (!Array.isArray(s.uploads)) return `uploads is not an array (${show(s.uploads)})`;
  for (let i = 0; i < s.transcripts.length; i++) {
    const problem = transcriptProblem(s.transcripts[i], `transcripts[${i}]`);
    if (problem) return problem;
  }
  for (let i = 0; i < s.uploads.length; i++) {
    const problem = uploadProblem(s.uploads[i], `uploads[${i}]`);
    if (problem) return problem;
  }
  return null;
}

export type Entry = { transcript: TranscriptRecord } | { upload: UploadRecord } | { deletedUpload: string };

export function entryProblem(e: unknown): string | null {
  if (isObject(e) && 'transcript' in e) return transcriptProblem(e.transcript, 'transcript');
  if (isObject(e) && 'upload' in e) return uploadProblem(e.upload, 'upload');
  if (isObject(e) && typeof e.deletedUpload === 'string') return null;
  return `not a transcript, upload or deletedUpload entry (${show(e)})`;
}
