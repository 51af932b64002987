import {
  type APIPromise,
  fileBody,
  isStreamBody,
  isStreamSource,
  type RequestOptions,
  type StreamBody,
  ValidationError,
} from '@x/core';
import type { TranscriptionContext } from '../context.js';
import { type UploadedFile, uploadedFile } from '../schemas/files.js';

/**
 * Audio to upload: a file path (Node), a `streamBody(() => stream)` (re-openable, so retried), a Node
 * `Readable` or web `ReadableStream` (sent once, never retried), a `Blob`/`File`, or bytes.
 */
export type UploadInput =
  | string
  | StreamBody
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array>
  | Blob
  | ArrayBuffer
  | ArrayBufferView;

/** `onProgress` reports bytes sent; `signal` cancels the upload mid-stream. */
export type UploadOptions = RequestOptions;

/** `/v2/upload`: audio files for `audio_url`. */
export class Files {
  readonly #context: TranscriptionContext;

  constructor(context: TranscriptionContext) {
    this.#context = context;
  }

  /**
   * Uploads audio, streamed from a path or stream (a 1 GB file is never held in memory), and answers the
   * `upload_url` to transcribe. Retried on transient failures when the input can be read again.
   */
  upload(input: UploadInput, options?: UploadOptions): APIPromise<UploadedFile> {
    return this.#context.client.request(() => ({
      method: 'POST',
      path: '/v2/upload',
      body: uploadBody(input),
      schema: uploadedFile,
      what: 'files.upload',
      // A second copy of a file costs nothing at the service (unlike a second transcript), so an upload
      // that can be re-read is retried like an idempotent call.
      options: {
        retryNonIdempotent: true,
        ...options,
        headers: { 'content-type': 'application/octet-stream', ...options?.headers },
      },
    }));
  }
}

function uploadBody(input: UploadInput): unknown {
  if (typeof input === 'string') {
    if (input === '') throw invalid('must be a file path, not an empty string');
    if (/^https?:\/\//i.test(input)) {
      throw invalid(
        `is a URL (${input.split('?')[0]}); the service fetches URLs itself: pass it as audio_url to transcripts.submit() instead of uploading`,
      );
    }
    // Read as a path, a file: URL names a file that does not exist (`file:///a.wav` is not `/a.wav`).
    if (/^file:/i.test(input)) {
      throw invalid('is a file: URL; pass the file path instead (fileURLToPath(url) from node:url)');
    }
    return fileBody(input, { contentType: 'application/octet-stream' });
  }
  if (isStreamBody(input) || isStreamSource(input)) return input;
  if (typeof Blob !== 'undefined' && input instanceof Blob) {
    if (input.size === 0) throw invalid('is an empty Blob; the service refuses an empty upload');
    return input;
  }
  if (input instanceof ArrayBuffer || ArrayBuffer.isView(input)) {
    if (input.byteLength === 0) throw invalid('is empty; the service refuses an empty upload');
    return input;
  }
  throw invalid(
    `must be a file path, a Blob, bytes, a ReadableStream, a Node Readable or streamBody(), got ${describe(input)}`,
  );
}

function invalid(message: string): ValidationError {
  return new ValidationError('files.upload input', [{ path: 'input', message }]);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return (value as object).constructor?.name ?? 'an object';
  return typeof value;
}
