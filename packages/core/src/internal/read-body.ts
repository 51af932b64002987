import { ResponseTooLargeError } from '../errors.js';
import { redactUrl } from './redact.js';

/** How much of a body to read: error bodies are cut (`truncate`), successful ones beyond the limit fail. */
export interface BodyLimit {
  bytes: number;
  over: 'truncate' | 'fail';
}

export interface ReadText {
  text: string;
  /** An error body longer than its limit was cut there. */
  truncated: boolean;
}

/** The typed failure for a successful body beyond `maxResponseBytes`; the URL is redacted. */
export function tooLarge(limit: number, method: string, url: URL, declared?: number): ResponseTooLargeError {
  const size = declared === undefined ? `more than ${limit} bytes` : `${declared} bytes (content-length)`;
  return new ResponseTooLargeError(
    `Response body of ${size} exceeds maxResponseBytes (${limit}): ${method} ${redactUrl(url.href)}; raise maxResponseBytes, or ask for fewer items per page`,
    { limit },
  );
}

/** A declared `content-length` already beyond a failing limit: refused before reading a byte. */
export function declaredTooLarge(
  contentLength: string | null | undefined,
  limit: BodyLimit,
  method: string,
  url: URL,
): ResponseTooLargeError | undefined {
  if (limit.over !== 'fail' || !contentLength) return undefined;
  const declared = Number(contentLength);
  return declared > limit.bytes ? tooLarge(limit.bytes, method, url, declared) : undefined;
}

/**
 * Reads a fetch `Response` body as text within `limit`, then cancels the rest, so a huge error page costs
 * little and a huge success fails early. Each read also ends with the attempt's signal: a fetch need not
 * tie the body to the signal it was given (Node 20's undici, after retrying a 421 on a new connection,
 * neither aborts nor errors that body), and the timeout must cover the body all the same.
 */
export async function readText(
  response: Response,
  limit: BodyLimit,
  touch: () => void,
  signal: AbortSignal,
  where: { method: string; url: URL },
): Promise<ReadText> {
  if (!response.body) return { text: '', truncated: false };
  const reader = response.body.getReader();
  const refused = declaredTooLarge(response.headers.get('content-length'), limit, where.method, where.url);
  if (refused) {
    await reader.cancel().catch(() => {});
    throw refused;
  }
  const decoder = new TextDecoder();
  let text = '';
  let kept = 0;
  for (;;) {
    const { done, value } = await readUntil(reader, signal);
    if (done) return { text: text + decoder.decode(), truncated: false };
    touch();
    const room = limit.bytes - kept;
    if (value.byteLength > room) {
      await reader.cancel().catch(() => {});
      if (limit.over === 'fail') throw tooLarge(limit.bytes, where.method, where.url);
      text += decoder.decode(value.subarray(0, room));
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

/**
 * A `stream` body on the fetch path once handed over, under the same idle rule as the native path's
 * (native-read.ts): no byte for `idleMs`, whether the server stalls or the consumer never reads, cancels
 * the body (freeing the socket) and errors the stream with `timedOut()`. Node's fetch would otherwise wait
 * 300 s (undici's body timeout), and a browser's forever.
 */
export function watchIdleWeb(
  source: ReadableStream<Uint8Array>,
  idleMs: number,
  timedOut: () => Error,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        timer = setTimeout(() => {
          const error = timedOut();
          reader.cancel(error).catch(() => {});
          controller.error(error);
        }, idleMs);
      },
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            clearTimeout(timer);
            controller.close();
            return;
          }
          timer?.refresh();
          controller.enqueue(value);
        } catch (error) {
          clearTimeout(timer);
          controller.error(error);
        }
      },
      cancel(reason) {
        clearTimeout(timer);
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
