import ky, { type KyInstance } from 'ky';
import { AbortError, ConnectionError, TimeoutError } from './errors.js';
import { redactUrl } from './internal/redact.js';

/**
 * The only file that knows about ky. Retries, auth, limits and errors are the client's; ky sends one
 * attempt with a timeout and a signal. Moving to ky 2 (or to bare fetch) touches this file alone.
 */
export interface SendInput {
  method: string;
  url: URL;
  headers: Headers;
  body: BodyInit | undefined;
  timeoutMs: number;
  signal: AbortSignal | undefined;
}

export type FetchLike = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

export class Transport {
  readonly #ky: KyInstance;

  constructor(fetchImpl: FetchLike | undefined) {
    this.#ky = ky.create({
      retry: 0,
      throwHttpErrors: false,
      ...(fetchImpl ? { fetch: fetchImpl as typeof fetch } : {}),
    });
  }

  async send(input: SendInput): Promise<Response> {
    try {
      return await this.#ky(input.url, {
        method: input.method,
        headers: input.headers,
        body: input.body ?? null,
        timeout: input.timeoutMs,
        ...(input.signal ? { signal: input.signal } : {}),
      });
    } catch (error) {
      throw toTransportError(error, input);
    }
  }
}

function toTransportError(error: unknown, input: SendInput): Error {
  const where = `${input.method} ${redactUrl(input.url.toString())}`;
  const name = (error as { name?: string })?.name;
  if (name === 'TimeoutError') {
    return new TimeoutError(`Request timed out after ${input.timeoutMs} ms: ${where}`, { cause: error });
  }
  if (name === 'AbortError' || input.signal?.aborted) {
    return new AbortError(`Request aborted: ${where}`, { cause: input.signal?.reason ?? error });
  }
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
      const codes = current.errors.map((e: any) => e?.code);
      return codes.every((c: unknown) => c === codes[0]) ? codes[0] : codes.find(Boolean);
    }
    current = current.cause;
  }
  return undefined;
}
