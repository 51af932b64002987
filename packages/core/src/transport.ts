import { AbortError, ConnectionError, TimeoutError } from './errors.js';
import { redactUrl } from './internal/redact.js';

/**
 * The one place that touches the network: one attempt, with a timeout and a caller's signal. Retries,
 * auth, limits and errors belong to the client.
 *
 * This started on ky (the design brief's choice) and was moved to plain `fetch(url, init)` on measured
 * evidence: ky builds a `Request` three times per attempt (1.51-1.61x the CPU of raw fetch per request
 * for core, over the 1.5x budget), ky + zod/mini alone exceed the 9 KB gzip browser budget, and ky's
 * `fetch(new Request(...))` breaks custom fetch implementations with their own `Request` class (undici's
 * `fetch` with a private CA or proxy `dispatcher`, which users pass through `fetch`). Every ky feature
 * core used (timeout, signal, no throw on HTTP errors, no own retries) is a few lines here.
 */
export interface SendInput {
  method: string;
  url: URL;
  headers: Headers;
  body: BodyInit | undefined;
  timeoutMs: number;
  signal: AbortSignal | undefined;
}

export interface SendResult {
  response: Response;
  /** The whole body, read under the same timeout as the headers, so a stalled body cannot hang a call. */
  text: string;
}

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

const TIMED_OUT = Symbol('timed out');

export class Transport {
  readonly #fetch: FetchLike;

  constructor(fetchImpl: FetchLike | undefined) {
    // Looked up per call, not captured, so a test or polyfill that replaces globalThis.fetch still applies.
    this.#fetch = fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
  }

  async send(input: SendInput): Promise<SendResult> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(TIMED_OUT), input.timeoutMs);
    const forwardAbort = () => controller.abort(input.signal?.reason);
    if (input.signal?.aborted) forwardAbort();
    else input.signal?.addEventListener('abort', forwardAbort, { once: true });
    try {
      const response = await this.#fetch(input.url.href, {
        method: input.method,
        headers: input.headers,
        body: input.body ?? null,
        signal: controller.signal,
        redirect: 'follow',
      });
      return { response, text: await response.text() };
    } catch (error) {
      throw toTransportError(error, input, controller.signal.reason === TIMED_OUT);
    } finally {
      clearTimeout(timer);
      input.signal?.removeEventListener('abort', forwardAbort);
    }
  }
}

function toTransportError(error: unknown, input: SendInput, timedOut: boolean): Error {
  const where = `${input.method} ${redactUrl(input.url.href)}`;
  if (timedOut)
    return new TimeoutError(`Request timed out after ${input.timeoutMs} ms: ${where}`, { cause: error });
  if (input.signal?.aborted)
    return new AbortError(`Request aborted: ${where}`, { cause: input.signal.reason ?? error });
  const code = errorCode(error);
  const unsent = code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
  return new ConnectionError(`Connection error${code ? ` (${code})` : ''}: ${where}`, {
    cause: error,
    unsent,
  });
}

/** undici wraps the socket error in `cause`, sometimes in an AggregateError (happy eyeballs). */
function errorCode(error: unknown): string | undefined {
  let current: any = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if (typeof current.code === 'string' && current.code.startsWith('E')) return current.code;
    if (Array.isArray(current.errors) && current.errors.length > 0) {
      const codes: unknown[] = current.errors.map((e: any) => e?.code);
      return (codes.find((c) => typeof c === 'string') as string | undefined) ?? undefined;
    }
    current = current.cause;
  }
  return undefined;
}
