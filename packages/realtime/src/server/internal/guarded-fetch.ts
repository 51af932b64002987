import type { FetchLike } from '@x/core';
import { plainHttpAdvice, plainHttpCode } from '../../shared/tls.js';
import { statusFromBody } from './error-body.js';
import type { SendQueue } from './send-queue.js';

/**
 * The `fetch` the server SDK hands core, around the user's own (or the global one, looked up per call). It
 * does two things core cannot know about Pusher:
 *
 * - Every request carries its `auth_signature`, made anew each attempt from the secret. Core scrubs the
 *   secret itself and the signature in URLs it prints, but a server (or proxy) that echoes the query string
 *   into its error text or a header would put the signature into the error's message, body, headers and the
 *   log lines made from them. Here that value is cut out of the response (body, streamed, and headers) before
 *   core reads it, since only here is the signature of this very attempt known.
 * - `useTLS` defaults to true, and a host that speaks plain HTTP (the sandbox, soketi without TLS) fails the
 *   handshake with OpenSSL's "wrong version number". That becomes an error that names the option to change.
 * - soketi answers errors with status 200 and the status in the JSON body: the response gets that status
 *   back, so core raises its typed error (see `error-body.ts`).
 * - With a `SendQueue`, each attempt waits for a slot and holds it until its body is read (`send-queue.ts`).
 */
export function guardedFetch(inner: FetchLike | undefined, queue?: SendQueue): FetchLike {
  const send: FetchLike = async (input, init) => {
    let response: Response;
    try {
      response = await (inner ?? ((url, options) => globalThis.fetch(url, options)))(input, init);
    } catch (error) {
      throw plainHttpError(error, input) ?? error;
    }
    const signature = signatureOf(input);
    return statusFromBody(signature ? scrubResponse(response, signature) : response);
  };
  if (!queue) return send;
  return async (input, init) => {
    const release = await queue.acquire(init?.signal ?? undefined);
    let response: Response;
    try {
      response = await send(input, init);
    } catch (error) {
      release();
      throw error;
    }
    // In flight until core has read the body (or given up on it): a slot held only until the headers would
    // let slow bodies stream past the bound. Core reads it under its own body timeouts, so no read here.
    if (!response.body) {
      release();
      return response;
    }
    // Should a body be left unread, the attempt's signal (its timeout, the caller's abort) frees the slot.
    init?.signal?.addEventListener('abort', release, { once: true });
    return new Response(releasingBody(response.body, release), response);
  };
}

/** The same bytes; `release` runs once the stream ends, fails or is cancelled. */
function releasingBody(body: ReadableStream<Uint8Array>, release: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
}

export const REDACTED = '[REDACTED]';

function signatureOf(url: string): string | undefined {
  try {
    const value = new URL(url).searchParams.get('auth_signature');
    // Hex of HMAC-SHA256: anything shorter would blank out ordinary text.
    return value && value.length >= 16 ? value : undefined;
  } catch {
    return undefined;
  }
}

/** An error naming the fix when `error` is a TLS handshake answered in plain HTTP; undefined otherwise. */
export function plainHttpError(error: unknown, url: string): Error | undefined {
  const code = url.startsWith('https:') ? plainHttpCode(error) : undefined;
  // No `cause` and no `code`: core shows a cause's code or innermost message as the reason, and the reason
  // here is this sentence, not OpenSSL's.
  return code ? new Error(plainHttpAdvice('useTLS', url, code)) : undefined;
}

/** The same response with every occurrence of `signature` (hex, any case) replaced in body and headers. */
function scrubResponse(response: Response, signature: string): Response {
  const pattern = new RegExp(signature.replace(/[^0-9a-z]/gi, '\\$&'), 'gi');
  const headers = new Headers();
  response.headers.forEach((value, name) => {
    headers.append(name, value.replace(pattern, REDACTED));
  });
  // Statuses that may not carry a body keep none; the rest stream through the scrubber.
  const body =
    response.body && ![101, 103, 204, 205, 304].includes(response.status)
      ? response.body.pipeThrough(scrubber(signature))
      : null;
  const statusText = /^[\t\x20-\x7e\x80-\xff]*$/.test(response.statusText) ? response.statusText : '';
  return new Response(body, { status: response.status, statusText, headers });
}

const UPPER_A = 65;
const UPPER_Z = 90;
const lower = (byte: number): number => (byte >= UPPER_A && byte <= UPPER_Z ? byte + 32 : byte);

/**
 * Replaces an ASCII needle in a byte stream, matches split across chunks included: the last
 * `needle.length - 1` bytes of a chunk wait for the next one. Bytes, not text, so a multi-byte character
 * split between chunks is passed on untouched.
 */
export function scrubber(needle: string): TransformStream<Uint8Array, Uint8Array> {
  const target = new TextEncoder().encode(needle.toLowerCase());
  const replacement = new TextEncoder().encode(REDACTED);
  let carry = new Uint8Array(0);
  const matchesAt = (data: Uint8Array, at: number): boolean => {
    for (let j = 0; j < target.length; j++) if (lower(data[at + j]!) !== target[j]) return false;
    return true;
  };
  const replace = (data: Uint8Array, final: boolean, emit: (part: Uint8Array) => void): void => {
    let start = 0;
    let i = 0;
    for (; i + target.length <= data.length; i++) {
      if (!matchesAt(data, i)) continue;
      emit(data.subarray(start, i));
      emit(replacement);
      i += target.length - 1;
      start = i + 1;
    }
    const keep = final ? data.length : Math.max(start, data.length - (target.length - 1));
    emit(data.subarray(start, keep));
    carry = data.slice(keep);
  };
  return new TransformStream({
    transform(chunk, controller) {
      const data = new Uint8Array(carry.length + chunk.length);
      data.set(carry);
      data.set(chunk, carry.length);
      replace(data, false, (part) => {
        if (part.length > 0) controller.enqueue(part.slice());
      });
    },
    flush(controller) {
      replace(carry, true, (part) => {
        if (part.length > 0) controller.enqueue(part.slice());
      });
    },
  });
}
