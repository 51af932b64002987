import { ValidationError } from './errors.js';

/** What a stream body may be built from: a web stream, a Node `Readable`, or any async iterable of bytes. */
export type StreamSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

const STREAM_BODY = Symbol.for('@x/core/stream-body');

/**
 * A request body sent as it is read instead of held in memory. Made with {@link streamBody} or
 * {@link fileBody}; a `ReadableStream` or Node `Readable` passed directly as a body becomes a one-shot one.
 */
export interface StreamBody {
  readonly [STREAM_BODY]: true;
  /** Opens the bytes once per attempt. */
  open(): StreamSource;
  /** False for a stream given as a value: it can be read once, so the call is never retried or redirected. */
  readonly retryable: boolean;
  /** Sent as `Content-Length` when known (files, Blobs, or given); chunked otherwise. */
  readonly length: number | undefined;
  readonly contentType: string | undefined;
  /** Set by {@link fileBody}: Node opens the file itself, browsers refuse it. */
  readonly path: string | undefined;
  /** Set for Blobs sent with progress: browsers send the Blob itself rather than a request stream. */
  readonly blob: Blob | undefined;
}

export interface StreamBodyOptions {
  /** Byte length, sent as `Content-Length`; without it the body goes chunked. */
  length?: number | undefined;
  contentType?: string | undefined;
}

/**
 * A streamed request body. Pass a factory (`() => createReadStream(path)`) to let the call be retried and
 * redirected: every attempt opens a fresh stream. A stream passed directly can be read once only.
 */
export function streamBody(
  source: StreamSource | (() => StreamSource),
  options: StreamBodyOptions = {},
): StreamBody {
  const retryable = typeof source === 'function';
  if (!retryable && !isStreamSource(source)) {
    throw new ValidationError('stream body', [
      {
        path: 'body',
        message:
          'expected a ReadableStream, a Node Readable, an async iterable of bytes, or a function returning one',
      },
    ]);
  }
  if (options.length !== undefined && !(Number.isSafeInteger(options.length) && options.length >= 0)) {
    throw new ValidationError('stream body', [{ path: 'length', message: 'must be an integer >= 0' }]);
  }
  let opened = false;
  return {
    [STREAM_BODY]: true,
    open() {
      if (retryable) return (source as () => StreamSource)();
      if (opened) throw new Error('A one-shot stream body was opened twice');
      opened = true;
      return source as StreamSource;
    },
    retryable,
    length: options.length,
    contentType: options.contentType,
    path: undefined,
    blob: undefined,
  };
}

/**
 * A file sent from disk as it is read (Node, Deno and Bun): its size becomes `Content-Length`, and every
 * attempt reopens it, so uploads of any size are retried safely without holding the file in memory.
 */
export function fileBody(path: string, options: { contentType?: string } = {}): StreamBody {
  if (typeof path !== 'string' || path === '')
    throw new ValidationError('file body', [{ path: 'path', message: 'must be a non-empty file path' }]);
  return {
    [STREAM_BODY]: true,
    open() {
      throw new Error('fileBody is opened by the Node transport');
    },
    retryable: true,
    length: undefined,
    contentType: options.contentType ?? 'application/octet-stream',
    path,
    blob: undefined,
  };
}

export function isStreamBody(value: unknown): value is StreamBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { [STREAM_BODY]?: unknown })[STREAM_BODY] === true
  );
}

/** Web streams, Node `Readable`s and async generators; strings and byte arrays are not streams. */
export function isStreamSource(value: unknown): value is StreamSource {
  if (typeof value !== 'object' || value === null) return false;
  if (typeof ReadableStream !== 'undefined' && value instanceof ReadableStream) return true;
  return typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';
}

/** A request body ready for the transport: bytes already in memory, or a stream. */
export type OutgoingBody =
  | { kind: 'buffered'; value: BodyInit; contentType: string | undefined }
  | { kind: 'stream'; stream: StreamBody; contentType: string | undefined };

/**
 * Sorts what a caller passed as a body. Plain values become JSON; bytes, Blobs, forms and strings go as
 * they are; streams (and Blobs that report progress) stream.
 */
export function toOutgoingBody(body: unknown, withProgress: boolean): OutgoingBody | undefined {
  if (body === undefined) return undefined;
  if (isStreamBody(body)) return { kind: 'stream', stream: body, contentType: body.contentType };
  if (typeof Blob !== 'undefined' && body instanceof Blob) {
    if (!withProgress) return { kind: 'buffered', value: body, contentType: undefined };
    const stream: StreamBody = {
      ...streamBody(() => body.stream() as ReadableStream<Uint8Array>, { length: body.size }),
      blob: body,
    };
    return { kind: 'stream', stream, contentType: body.type || undefined };
  }
  if (
    typeof body === 'string' ||
    body instanceof Uint8Array ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    body instanceof URLSearchParams
  ) {
    return { kind: 'buffered', value: body as BodyInit, contentType: undefined };
  }
  if (isStreamSource(body)) return { kind: 'stream', stream: streamBody(body), contentType: undefined };
  return { kind: 'buffered', value: JSON.stringify(body), contentType: 'application/json' };
}

/**
 * `toOutgoingBody` for a call named `what`. JSON.stringify refuses a BigInt or a value that contains itself
 * with a bare TypeError that names neither the call nor the field: this refuses it as bad input, before
 * anything is sent.
 */
export function encodeBody(
  body: unknown,
  what: string | undefined,
  withProgress: boolean,
): OutgoingBody | undefined {
  try {
    return toOutgoingBody(body, withProgress);
  } catch (error) {
    // The engine's own words name the culprit ("serialize a BigInt", "circular structure").
    const issue = {
      path: 'body',
      message: `cannot be encoded as JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
    throw new ValidationError(`${what ?? 'request'} input`, [issue]);
  }
}
