import type { FetchLike } from '@x/core';
import { plainHttpAdvice, plainHttpCode } from '../../shared/tls.js';
import { isJsonSuccess, responseFromText, statusTextOf } from './error-body.js';
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
  const send = async (input: string, init: RequestInit): Promise<Sent> => {
    let response: Response;
    try {
      response = await (inner ?? ((url, options) => globalThis.fetch(url, options)))(input, init);
    } catch (error) {
      throw plainHttpError(error, input) ?? error;
    }
    const signature = signatureOf(input);
    if (isJsonSuccess(response) && tooShortForErrorOrSignature(response)) {
      // `{}` and `{"ok":true}`, the answers to every trigger: nothing to check or scrub in a body this short,
      // so it goes to core as it came. Its slot is freed now: a body of a few declared bytes is no stream a
      // slot needs to bound, and core's attempt timeout still covers reading it.
      const headers = signature ? scrubHeaders(response.headers, signature) : response.headers;
      if (headers === response.headers) return { response, read: true };
    }
    if (isJsonSuccess(response)) {
      // A success body is small and core reads it whole anyway: read it once here, scrub and check the text,
      // and hand core a Response over that text. Streaming it through a scrubber and a slot-releasing stream
      // cost more CPU than the rest of the call (bench/server-profile.ts).
      const read = await textWithin(response, init.signal ?? undefined);
      const text = signature ? scrubText(read, signature) : read;
      let headers = signature ? scrubHeaders(response.headers, signature) : response.headers;
      if (text.length !== read.length) {
        headers = new Headers(headers);
        headers.delete('content-length');
      }
      return { response: responseFromText(response, text, headers), read: true };
    }
    return { response: signature ? scrubResponse(response, signature) : response, read: false };
  };
  if (!queue) return async (input, init) => (await send(input, init)).response;
  return async (input, init) => {
    const release = await queue.acquire(init?.signal ?? undefined);
    let sent: Sent;
    try {
      sent = await send(input, init);
    } catch (error) {
      release();
      throw error;
    }
    const { response } = sent;
    // In flight until core has read the body (or given up on it): a slot held only until the headers would
    // let slow bodies stream past the bound. Core reads it under its own body timeouts, so no read here.
    if (sent.read || !response.body) {
      release();
      return response;
    }
    // Should a body be left unread, the attempt's signal (its timeout, the caller's abort) frees the slot.
    init?.signal?.addEventListener('abort', release, { once: true });
    return new Response(releasingBody(response.body, release), response);
  };
}

/** `{"error":"","code":400}`, the shortest error body; a signature is longer still (64 hex digits). */
const SHORTEST_ERROR_BODY = 23;

function tooShortForErrorOrSignature(response: Response): boolean {
  const length = response.headers.get('content-length');
  return length !== null && /^\d{1,2}$/.test(length) && Number(length) < SHORTEST_ERROR_BODY;
}

interface Sent {
  response: Response;
  /** The body is already in memory (a JSON success) or a few bytes, so the call no longer needs its slot. */
  read: boolean;
}

/**
 * The body as text, or the signal's reason once it aborts: a fetch need not tie the body to its signal
 * (core's `readText` says when Node 20's undici does not), and the attempt's timeout must end this read too.
 */
function textWithin(response: Response, signal: AbortSignal | undefined): Promise<string> {
  if (!signal) return response.text();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      response.body?.cancel(signal.reason).catch(() => {});
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    response
      .text()
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
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
  // The signer puts it last, as hex; a regex on the string, not a URL parse, since this runs per response.
  const value = /[?&]auth_signature=([^&#]*)/.exec(url)?.[1];
  // Hex of HMAC-SHA256: anything shorter would blank out ordinary text.
  return value && value.length >= 16 ? value.toLowerCase() : undefined;
}

/** An error naming the fix when `error` is a TLS handshake answered in plain HTTP; undefined otherwise. */
export function plainHttpError(error: unknown, url: string): Error | undefined {
  const code = url.startsWith('https:') ? plainHttpCode(error) : undefined;
  // No `cause` and no `code`: core shows a cause's code or innermost message as the reason, and the reason
  // here is this sentence, not OpenSSL's.
  return code ? new Error(plainHttpAdvice('useTLS', url, code)) : undefined;
}

/** Every occurrence of `signature` (lowercase hex, matched in any case) in `text` replaced. */
function scrubText(text: string, signature: string): string {
  if (!text.toLowerCase().includes(signature)) return text;
  return text.replace(new RegExp(signature, 'gi'), REDACTED);
}

/** The same headers, or a copy with `signature` replaced when some value holds it. */
function scrubHeaders(headers: Headers, signature: string): Headers {
  let found = false;
  headers.forEach((value) => {
    found ||= value.toLowerCase().includes(signature);
  });
  if (!found) return headers;
  const scrubbed = new Headers();
  headers.forEach((value, name) => {
    scrubbed.append(name, scrubText(value, signature));
  });
  return scrubbed;
}

/** The same response with every occurrence of `signature` (hex, any case) replaced in body and headers. */
function scrubResponse(response: Response, signature: string): Response {
  const headers = scrubHeaders(response.headers, signature);
  // Statuses that may not carry a body keep none; the rest stream through the scrubber.
  const body =
    response.body && ![101, 103, 204, 205, 304].includes(response.status)
      ? response.body.pipeThrough(scrubber(signature))
      : null;
  return new Response(body, { status: response.status, statusText: statusTextOf(response), headers });
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
