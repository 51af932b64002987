import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Uploads } from './uploads.js';

/** A job's audio on disk, and how to let go of it (downloads are removed, uploads kept). */
export interface LocalAudio {
  path: string;
  dispose(): Promise<void>;
}

/** An upload URL this emulator handed out (`…/v2/upload/<uuid>`), whatever host name the client used. */
export function uploadIdOf(audioUrl: string): string | null {
  try {
    const match = /\/v2\/upload\/([0-9a-f-]{36})$/.exec(new URL(audioUrl).pathname);
    return match ? match[1]! : null;
  } catch {
    return null;
  }
}

/** The service's job error for an audio_url it could not fetch. */
export class DownloadError extends Error {}

/**
 * Downloads `audio_url` to a scratch file, streamed and bounded like an upload, so a remote file of any size
 * never sits in memory. The messages are the service's "Download error" ones.
 */
export async function downloadAudio(
  url: string,
  uploads: Uploads,
  options: { maxBytes: number; timeoutMs: number; signal: AbortSignal },
): Promise<LocalAudio> {
  const fail = (why: string) =>
    new DownloadError(
      `Download error, unable to download ${url}. Please make sure the file exists and is accessible from the internet. (${why})`,
    );
  let response: Response;
  try {
    response = await fetch(url, {
      signal: AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]),
    });
  } catch (error) {
    if (options.signal.aborted) throw error;
    throw fail((error as Error).message);
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel().catch(() => {});
    throw fail(`HTTP ${response.status}`);
  }
  const type = response.headers.get('content-type') ?? '';
  if (/^text\/html/i.test(type)) {
    await response.body.cancel().catch(() => {});
    throw new DownloadError(
      `File does not appear to contain audio. File type is text/html (HTML document, ASCII text).`,
    );
  }
  const path = await uploads.scratchPath('.download');
  let bytes = 0;
  const bounded = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.byteLength;
      if (bytes > options.maxBytes) done(fail(`larger than ${options.maxBytes} bytes`));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(
      Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>),
      bounded,
      createWriteStream(path),
    );
  } catch (error) {
    await unlink(path).catch(() => {});
    if (error instanceof DownloadError || options.signal.aborted) throw error;
    throw fail((error as Error).message);
  }
  return { path, dispose: () => unlink(path).catch(() => {}) };
}
