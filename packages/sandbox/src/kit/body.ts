/**
 * How reading a request body ended. `hungUp`: the client closed the connection before sending the body it
 * declared (a Content-Length of 1000 and 5 bytes, then a hang-up). That is a client's choice, not an emulator
 * failure: routes answer it quietly (a 400 nobody reads) instead of logging it as a bug.
 */
export type BodyRead = { bytes: Buffer } | { tooLarge: true } | { hungUp: true };

/**
 * Reads a request body up to `max` bytes. A declared Content-Length over the limit is refused before reading,
 * and a body without one stops being read at the limit, so a client cannot make the emulator buffer an
 * unbounded upload.
 */
export async function readBody(req: Request, max: number): Promise<BodyRead> {
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > max) return { tooLarge: true };
  if (!req.body) return { bytes: Buffer.alloc(0) };
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let read: ReadableStreamReadResult<Uint8Array>;
    try {
      read = await reader.read();
    } catch {
      // The only way the incoming stream errors is the connection ending early (the adapter's abortIncoming).
      return { hungUp: true };
    }
    if (read.done) break;
    total += read.value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => {});
      return { tooLarge: true };
    }
    chunks.push(read.value);
  }
  return { bytes: Buffer.concat(chunks) };
}

/** The client hung up before its body was complete (see `BodyRead`). */
export class ClientHungUpError extends Error {
  override readonly name = 'ClientHungUpError';
  constructor() {
    super('The client closed the connection before sending the whole request body.');
  }
}

/**
 * `readBody` as a buffer, or `null` when the body is larger than `max`; a hang-up rejects with
 * `ClientHungUpError`, so a caller can tell it from a failure.
 */
export async function readBoundedBody(req: Request, max: number): Promise<Buffer | null> {
  const read = await readBody(req, max);
  if ('hungUp' in read) throw new ClientHungUpError();
  return 'bytes' in read ? read.bytes : null;
}
