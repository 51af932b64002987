import ky from 'ky';
import { createNativeSender, sendStreamed } from '#transfer';
import type { OutgoingBody } from './body.js';
import { ConnectionError, ValidationError, XError } from './errors.js';
import { whenAborted } from './internal/abort-fanout.js';
import { type BodyLimit, readText, watchIdleWeb } from './internal/read-body.js';
import type { NativeSender } from './internal/transfer.js';
import { type TimedOut, toTransportError } from './internal/transport-errors.js';

/**
 * The one place that touches the network: one attempt, under its timeouts and a caller's signal.
 * Retries, redirects, auth, limits and errors belong to the client.
 *
 * On the fetch path, ordinary requests go through ky (request building, header merging, signal plumbing) with ky's own
 * retries, timeout and redirects off: core's retry loop (budget, limiter gating, `Retry-After`) is the one
 * retry path, core follows redirects itself so credentials never leave the API's origin, and core's
 * timeout also covers reading the body, which ky's stops short of. ky never sees the body: it hands
 * `fetch` a `Request` whose body is a stream (held in memory by Node's fetch, and re-encoded with a new
 * boundary for forms), so the adapter below gives the user's `fetch` a plain `(url, init)` with the
 * original body. That also keeps custom fetch implementations with their own `Request` class working
 * (undici's `fetch` with a private CA or proxy `dispatcher`).
 *
 * In Node, `#transfer` gives two more paths: ordinary requests go over undici's dispatcher (or node:http
 * with the client's `agent`), without ky or fetch, at a third of their CPU (see internal/native-node.ts),
 * unless the client was given its own `fetch`; streamed bodies go over node:http, since Node's fetch
 * buffers them whole. Elsewhere (browsers, workers, Deno, Bun) everything goes through ky over fetch,
 * streams with `duplex: 'half'`. Both paths read bodies under the same limits and timeouts and fail with
 * the same typed errors (internal/transport-errors.ts).
 */
export interface SendInput {
  method: string;
  url: URL;
  headers: Headers;
  body: OutgoingBody | undefined;
  /** Per attempt: headers and body; for a streamed upload, from the end of the upload. */
  timeoutMs: number;
  /** Streamed transfers: fails when no byte moved for this long. */
  idleTimeoutMs: number;
  signal: AbortSignal | undefined;
  onProgress: ((progress: Progress) => void) | undefined;
  /** `stream` hands a successful response's body over unread. */
  responseType: 'text' | 'stream';
  /** Error bodies are read up to this many bytes; the rest is discarded. */
  maxErrorBodyBytes: number;
  /** A successful body beyond this many bytes fails with `ResponseTooLargeError` (not for `stream`). */
  maxResponseBytes: number;
  /** Node `http.Agent` for streamed uploads (ordinary requests take the client's, given to the Transport). */
  agent: unknown;
  /** Which attempt of the call this is (`attempt 3 of 3`): a timeout on the last one reads differently. */
  attempt?: string | undefined;
}

export interface Progress {
  loaded: number;
  total: number | undefined;
}

export interface SendResult {
  response: Response;
  /** The body read as text (capped for errors); empty when handed over as `stream`. */
  text: string;
  stream: ReadableStream<Uint8Array> | undefined;
  /** An error body longer than `maxErrorBodyBytes` was cut there. */
  truncated: boolean;
}

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export class Transport {
  readonly #fetch: FetchLike;
  /** Node's own path for ordinary requests; undefined when the client was given a `fetch`, or outside Node. */
  readonly #native: NativeSender | undefined;

  constructor(fetchImpl: FetchLike | undefined, agent?: unknown) {
    // Looked up per call, not captured, so a test or polyfill that replaces globalThis.fetch still applies.
    this.#fetch = fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
    this.#native = fetchImpl === undefined ? createNativeSender?.(agent) : undefined;
  }

  /** Which path ordinary requests of this transport take (tests and diagnostics). */
  get path(): 'native' | 'fetch' {
    return this.#native ? 'native' : 'fetch';
  }

  async send(input: SendInput): Promise<SendResult> {
    const okLimit: BodyLimit = { bytes: input.maxResponseBytes, over: 'fail' };
    const errorLimit: BodyLimit = { bytes: input.maxErrorBodyBytes, over: 'truncate' };
    if (this.#native && input.body?.kind !== 'stream') {
      // Its own clocks and typed errors (native-node.ts): no AbortController per attempt.
      return this.#native({
        method: input.method,
        url: input.url,
        headers: input.headers,
        body: input.body?.value,
        timeoutMs: input.timeoutMs,
        idleTimeoutMs: input.idleTimeoutMs,
        signal: input.signal,
        responseType: input.responseType,
        okLimit,
        errorLimit,
        attempt: input.attempt,
      });
    }
    const controller = new AbortController();
    const streamed = input.body?.kind === 'stream' || input.responseType === 'stream';
    let attemptTimer: ReturnType<typeof setTimeout> | undefined;
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    const startAttemptTimer = () => {
      attemptTimer = setTimeout(
        () => controller.abort({ kind: 'attempt' } satisfies TimedOut),
        input.timeoutMs,
      );
    };
    const touch = streamed
      ? () => {
          clearTimeout(idleTimer);
          idleTimer = setTimeout(
            () => controller.abort({ kind: 'idle' } satisfies TimedOut),
            input.idleTimeoutMs,
          );
        }
      : () => {};
    const forwardAbort = () => controller.abort(input.signal?.reason);
    let unlisten: (() => void) | undefined;
    if (input.signal?.aborted) forwardAbort();
    else if (input.signal) unlisten = whenAborted(input.signal, forwardAbort);
    if (input.body?.kind !== 'stream') startAttemptTimer();
    touch();
    // A throwing onProgress is the caller's bug, not a network failure: it ends the attempt and is rethrown as is.
    let callbackError: { error: unknown } | undefined;
    const progress = (loaded: number, total: number | undefined) => {
      touch();
      try {
        input.onProgress?.({ loaded, total });
      } catch (error) {
        callbackError ??= { error };
        controller.abort(error);
        throw error;
      }
    };
    try {
      const response =
        input.body?.kind === 'stream' && sendStreamed
          ? await sendStreamed({
              method: input.method,
              url: input.url,
              headers: input.headers,
              body: input.body,
              signal: controller.signal,
              agent: input.agent,
              progress,
              uploaded: startAttemptTimer,
            })
          : await this.#viaKy(input, controller.signal, progress, startAttemptTimer);
      touch();
      if (response.ok && input.responseType === 'stream') {
        const idle = () =>
          toTransportError(new Error('no bytes'), input, { kind: 'idle' } satisfies TimedOut);
        const stream = response.body ? watchIdleWeb(response.body, input.idleTimeoutMs, idle) : undefined;
        return { response, text: '', stream, truncated: false };
      }
      const { text, truncated } = await readText(
        response,
        response.ok ? okLimit : errorLimit,
        touch,
        controller.signal,
        input,
      );
      return { response, text, stream: undefined, truncated };
    } catch (error) {
      if (callbackError) throw callbackError.error;
      // Input problems found on the way (a file that cannot be read) are already typed: not a connection failure.
      if (error instanceof XError && !(error instanceof ConnectionError)) throw error;
      throw toTransportError(error, input, controller.signal.reason);
    } finally {
      clearTimeout(attemptTimer);
      clearTimeout(idleTimer);
      unlisten?.();
    }
  }

  async #viaKy(
    input: SendInput,
    signal: AbortSignal,
    progress: (loaded: number, total: number | undefined) => void,
    uploaded: () => void,
  ): Promise<Response> {
    const init: RequestInit & { duplex?: 'half' } = { method: input.method, redirect: 'manual' };
    const body = input.body;
    // fetch would send a caller's content-length as is, and wait for bytes that never come when it is too
    // long; the native path drops it too (native-node.ts). A streamed upload sets its own length.
    if (body?.kind !== 'stream') input.headers.delete('content-length');
    if (body?.kind === 'buffered') init.body = await encodeForm(body.value, input.headers);
    else if (body?.kind === 'stream') {
      const { stream } = body;
      if (stream.path)
        throw new ValidationError('file body', [
          {
            path: 'body',
            message: 'fileBody() needs Node, Deno or Bun; in a browser pass the File (a Blob) as the body',
          },
        ]);
      if (stream.blob) {
        // Browsers only stream request bodies over HTTP/2; a Blob goes whole and reports start and end.
        init.body = stream.blob;
        progress(0, stream.blob.size);
      } else {
        init.body = countingStream(stream.open(), stream.length, progress, uploaded);
        init.duplex = 'half';
      }
    }
    const blob = body?.kind === 'stream' ? body.stream.blob : undefined;
    // The signal goes to fetch directly rather than through ky: given one, ky merges it with its own
    // controller through AbortSignal.any on every call, for nothing, since ky's timeout is off.
    init.signal = signal;
    return ky(input.url, {
      method: input.method,
      headers: input.headers,
      redirect: 'manual',
      timeout: false,
      retry: 0,
      throwHttpErrors: false,
      // ky always calls fetch with the Request it built.
      fetch: blob
        ? async (request) => {
            const response = await this.#fetch(input.url.href, {
              ...init,
              headers: (request as Request).headers,
            });
            progress(blob.size, blob.size);
            uploaded();
            return response;
          }
        : (request) => this.#fetch(input.url.href, { ...init, headers: (request as Request).headers }),
    });
  }
}

/**
 * A `FormData` is encoded here, once, into a Blob with its boundary in the content type: a `fetch` from
 * another copy of undici (the one users pass for a proxy or CA) does not recognise the global FormData
 * class and would send "[object FormData]".
 */
async function encodeForm(value: BodyInit, headers: Headers): Promise<BodyInit> {
  if (typeof FormData === 'undefined' || !(value instanceof FormData)) return value;
  const blob = await new Response(value).blob();
  if (!headers.has('content-type')) headers.set('content-type', blob.type);
  return blob;
}

/** Pull-based, so `loaded` follows what fetch actually took; the end of the source starts the attempt timer. */
function countingStream(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  total: number | undefined,
  progress: (loaded: number, total: number | undefined) => void,
  uploaded: () => void,
): ReadableStream<Uint8Array> {
  const iterator = source instanceof ReadableStream ? source.getReader() : source[Symbol.asyncIterator]();
  let loaded = 0;
  progress(0, total);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = 'read' in iterator ? await iterator.read() : await iterator.next();
      if (next.done) {
        uploaded();
        controller.close();
        return;
      }
      loaded += next.value.byteLength;
      progress(loaded, total);
      controller.enqueue(next.value);
    },
    async cancel(reason) {
      if ('cancel' in iterator) await iterator.cancel(reason);
      else await iterator.return?.();
    },
  });
}
