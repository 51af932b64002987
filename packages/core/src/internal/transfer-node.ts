/**
 * Streamed uploads in Node, over `node:http(s)` rather than `fetch`: Node's `fetch` (global and undici's)
 * keeps a streamed request body in memory, so a 1 GB upload grew RSS by about 1 GB, while writing to an
 * `http.ClientRequest` with backpressure keeps it near one socket buffer (`pnpm bench` measures both).
 * Reached through the `#transfer` import map (`node` condition), so browser bundles never see `node:`.
 */
import { type FileHandle, open } from 'node:fs/promises';
import { type Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import type { StreamSource } from '../body.js';
import { FileError } from '../errors.js';
import type { StreamedSendInput } from './transfer.js';

/** Ordinary requests: undici's dispatcher, or node:http with the client's own agent (see native-node.ts). */
export { createNativeSender } from './native-node.js';

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);
const FILE_CHUNK_BYTES = 256 * 1024;

export async function sendStreamed(input: StreamedSendInput): Promise<Response> {
  const { stream } = input.body;
  // The file is opened and checked before the stream exists: a read stream over a missing file emits
  // 'error' on its own, with nobody listening yet, which ended the process instead of rejecting the call.
  const file = stream.path ? await openFile(stream.path) : undefined;
  const source: StreamSource = file
    ? file.handle.createReadStream({ highWaterMark: FILE_CHUNK_BYTES })
    : stream.open();
  const length = file ? file.size : stream.length;
  const headers: Record<string, string> = {};
  input.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (length !== undefined) headers['content-length'] = String(length);
  else headers['transfer-encoding'] = 'chunked';
  const send = input.url.protocol === 'https:' ? httpsRequest : httpRequest;

  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      destroySource(source);
      reject(error);
    };
    const req = send(input.url, {
      method: input.method,
      headers,
      agent: input.agent as Agent | undefined,
      signal: input.signal,
    });
    req.on('error', fail);
    req.on('response', (res: IncomingMessage) => {
      if (settled) return;
      settled = true;
      // The server answered (possibly early, e.g. 413 or 401 before reading everything): stop uploading.
      destroySource(source);
      resolve(toResponse(res, input.method));
    });
    void (async () => {
      let loaded = 0;
      try {
        input.progress(0, length);
        for await (const chunk of source as AsyncIterable<Uint8Array>) {
          if (settled) return;
          const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          const flushed = req.write(bytes);
          loaded += bytes.byteLength;
          input.progress(loaded, length);
          if (!flushed) await drained(req, input.signal);
        }
        input.uploaded();
        req.end();
      } catch (error) {
        fail(error);
        req.destroy();
      }
    })();
  });
}

function drained(req: NodeJS.WritableStream & { once: Function; off: Function }, signal: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    const done = () => {
      req.off('drain', done);
      req.off('close', done);
      signal.removeEventListener('abort', aborted);
      resolve();
    };
    const aborted = () => {
      req.off('drain', done);
      req.off('close', done);
      reject(signal.reason);
    };
    req.once('drain', done);
    // A destroyed request never drains; the response or error handler settles the call.
    req.once('close', done);
    signal.addEventListener('abort', aborted, { once: true });
  });
}

function destroySource(source: StreamSource): void {
  const destroyable = source as { destroy?: () => void; cancel?: () => Promise<void> };
  if (typeof destroyable.destroy === 'function') destroyable.destroy();
  else if (typeof destroyable.cancel === 'function') destroyable.cancel().catch(() => {});
}

function toResponse(res: IncomingMessage, method: string): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const status = res.statusCode ?? 0;
  const noBody = NULL_BODY_STATUSES.has(status) || method === 'HEAD';
  if (noBody) {
    // Nobody reads this response, so a socket reset after its head would be an unhandled 'error'.
    res.on('error', () => {});
    res.resume();
  }
  const body = noBody ? null : (Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>);
  return new Response(body, { status, statusText: res.statusMessage ?? '', headers });
}

const FILE_REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files in this process',
};

/** Opens a file body for reading, or says in a `FileError` why it cannot be, before any request exists. */
async function openFile(path: string): Promise<{ handle: FileHandle; size: number }> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw fileError(path, error);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new FileError(path, 'it is not a regular file', { code: 'EISDIR' });
    return { handle, size: info.size };
  } catch (error) {
    await handle.close().catch(() => {});
    throw error instanceof FileError ? error : fileError(path, error);
  }
}

function fileError(path: string, error: unknown): FileError {
  const code = (error as { code?: unknown })?.code;
  const known = typeof code === 'string' ? code : undefined;
  const reason = (known && FILE_REASONS[known]) ?? (error as Error)?.message ?? String(error);
  return new FileError(path, known ? `${reason} (${known})` : reason, { code: known, cause: error });
}
