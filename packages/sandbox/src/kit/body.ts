/**
 * Reads a request body up to `max` bytes; `null` when it is larger. A declared Content-Length over the limit
 * is refused before reading, and a body without one stops being read at the limit, so a client cannot make
 * the emulator buffer an unbounded upload.
 */
export async function readBoundedBody(req: Request, max: number): Promise<Buffer | null> {
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > max) return null;
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
