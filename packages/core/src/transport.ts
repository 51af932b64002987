import ky from 'ky';
import { sendStreamed } from '#transfer';
import type { OutgoingBody } from './body.js';
import { AbortError, ConnectionError, TimeoutError, ValidationError, XError } from './errors.js';
import { redactUrl } from './internal/redact.js';

/**
 * The one place that touches the network: one attempt, under its timeouts and a caller's signal.
 * Retries, redirects, auth, limits and errors belong to the client.
 *
 * Ordinary requests go through ky (request building, header merging, signal plumbing) with ky's own
 * retries, timeout and redirects off: core's retry loop (budget, limiter gating, `Retry-After`) is the one
 * retry path, core follows redirects itself so credentials never leave the API's origin, and core's
 * timeout also covers reading the body, which ky's stops short of. ky never sees the body: it hands
 * `fetch` a `Request` whose body is a stream (held in memory by Node's fetch, and re-encoded with a new
 * boundary for forms), so the adapter below gives the user's `fetch` a plain `(url, init)` with the
 * original body. That also keeps custom fetch implementations with their own `Request` class working
 * (undici's `fetch` with a private CA or proxy `dispatcher`).
 *
 * Streamed bodies in Node take `#transfer` (node:http), since Node's fetch buffers them whole; elsewhere
 * they go through fetch with `duplex: 'half'`.
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
  /** Node `http.Agent` for streamed uploads. */
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

type TimedOut = { kind: 'attempt' | 'idle' };

export class Transport {
  readonly #fetch: FetchLike;

  constructor(fetchImpl: FetchLike | undefined) {
    // Looked up per call, not captured, so a test or polyfill that replaces globalThis.fetch still applies.
    this.#fetch = fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
  }

  async send(input: SendInput): Promise<SendResult> {
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
    if (input.signal?.aborted) forwardAbort();
    else input.signal?.addEventListener('abort', forwardAbort, { once: true });
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
        return { response, text: '', stream: response.body ?? undefined, truncated: false };
      }
      const { text, truncated } = await readText(
        response,
        response.ok ? Number.POSITIVE_INFINITY : input.maxErrorBodyBytes,
        touch,
        controller.signal,
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
      input.signal?.removeEventListener('abort', forwardAbort);
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

/**
 * Reads at most `limit` bytes of text, then cancels the rest, so a huge error page costs little. Each read
 * also ends with the attempt's signal: a fetch need not tie the body to the signal it was given (Node 20's
 * undici, after retrying a 421 on a new connection, neither aborts nor errors that body), and the timeout
 * must cover the body all the same.
 */
async function readText(
  response: Response,
  limit: number,
  touch: () => void,
  signal: AbortSignal,
): Promise<{ text: string; truncated: boolean }> {
  if (!response.body) return { text: '', truncated: false };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let kept = 0;
  for (;;) {
    const { done, value } = await readUntil(reader, signal);
    if (done) return { text: text + decoder.decode(), truncated: false };
    touch();
    const room = limit - kept;
    if (value.byteLength > room) {
      text += decoder.decode(value.subarray(0, room));
      await reader.cancel().catch(() => {});
      return { text, truncated: true };
    }
    kept += value.byteLength;
    text += decoder.decode(value, { stream: true });
  }
}

/** One read, or the signal's reason once it aborts; the reader is then cancelled, not awaited (it may never settle). */
function readUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  signal: AbortSignal,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      reader.cancel(signal.reason).catch(() => {});
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    reader
      .read()
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function toTransportError(error: unknown, input: SendInput, reason: unknown): Error {
  const where = `${input.method} ${redactUrl(input.url.href)}`;
  const timedOut = (reason as TimedOut | undefined)?.kind;
  const which = input.attempt ? `, ${input.attempt}` : '';
  if (timedOut === 'attempt')
    return new TimeoutError(
      `Request timed out after ${input.timeoutMs} ms (per-attempt timeout${which}): ${where}`,
      {
        cause: error,
        timeout: 'attempt',
      },
    );
  if (timedOut === 'idle')
    return new TimeoutError(`No bytes moved for ${input.idleTimeoutMs} ms (idle timeout${which}): ${where}`, {
      cause: error,
      timeout: 'idle',
    });
  if (input.signal?.aborted)
    return new AbortError(`Request aborted: ${where}`, { cause: input.signal.reason ?? error });
  const code = errorCode(error);
  const unsent = code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
  const message = causeMessage(error);
  const what = explainFailure(code, message, input.url);
  const reasonText = what ?? code ?? message;
  return new ConnectionError(`Connection error${reasonText ? `: ${reasonText}` : ''} (${where})`, {
    cause: error,
    unsent,
  });
}

/**
 * What a socket error code means for this URL, said plainly: `ECONNREFUSED` alone sends people to their
 * firewall when the server is simply not running, and OpenSSL's "wrong version number" hides that the
 * server speaks plain HTTP. Both fetch (undici puts the code in `cause`) and node:http land here.
 */
function explainFailure(code: string | undefined, message: string | undefined, url: URL): string | undefined {
  const origin = url.origin;
  if (code === 'ECONNREFUSED')
    return `nothing is listening at ${origin} (ECONNREFUSED): is the server running, and are the host and port right?`;
  if (code === 'ENOTFOUND')
    return `the host name ${url.hostname} does not resolve (ENOTFOUND): check the host in the URL`;
  if (code === 'EAI_AGAIN')
    return `the host name ${url.hostname} could not be resolved right now (EAI_AGAIN): DNS did not answer`;
  if (
    code === 'ERR_SSL_WRONG_VERSION_NUMBER' ||
    code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG' ||
    (code === 'EPROTO' && /wrong version number|packet length too long|http request/i.test(message ?? ''))
  )
    return `${origin} answered TLS with plain HTTP (${code}): this host speaks plain HTTP: use http:// (or set the TLS option false)`;
  if (code === 'ECONNRESET' || (!code && /other side closed|socket hang up/i.test(message ?? '')))
    return `the server at ${origin} closed the connection before answering in full (${code ?? message})${url.protocol === 'http:' ? '; if it serves HTTPS, use https://' : ''}`;
  if (code === 'ETIMEDOUT') return `connecting to ${origin} timed out (ETIMEDOUT)`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return `no network route to ${url.hostname} (${code})`;
  return undefined;
}

/** undici wraps the socket error in `cause`, sometimes in an AggregateError (happy eyeballs). */
function errorCode(error: unknown): string | undefined {
  let current: any = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if (typeof current.code === 'string' && /^E[A-Z_]+$/.test(current.code)) return current.code;
    if (Array.isArray(current.errors) && current.errors.length > 0) {
      const codes: unknown[] = current.errors.map((e: any) => e?.code);
      return (codes.find((c) => typeof c === 'string') as string | undefined) ?? undefined;
    }
    current = current.cause;
  }
  return undefined;
}

/** The innermost reason undici gives ("bad port", "invalid onRequestStart method"), which `fetch failed` hides. */
function causeMessage(error: unknown): string | undefined {
  let current: any = error;
  let message: string | undefined;
  for (let depth = 0; current && depth < 4; depth++) {
    if (typeof current.message === 'string' && current.message !== 'fetch failed') message = current.message;
    current = current.cause;
  }
  return message;
}
