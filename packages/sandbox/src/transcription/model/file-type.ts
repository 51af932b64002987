import { open } from 'node:fs/promises';

/**
 * A non-audio file described as the service describes it in its job error, MIME type then `file(1)`'s
 * words: "File does not appear to contain audio. File type is text/html (HTML document, ASCII text)."
 * Only the common cases are told apart; anything else is `application/octet-stream (data)`.
 */
export async function describeFileType(path: string): Promise<string> {
  const head = Buffer.alloc(512);
  let length = 0;
  try {
    const file = await open(path, 'r');
    try {
      ({ bytesRead: length } = await file.read(head, 0, head.length, 0));
    } finally {
      await file.close();
    }
  } catch {
    return 'application/octet-stream (data)';
  }
  const bytes = head.subarray(0, length);
  const text = bytes.toString('latin1');
  if (length === 0) return 'application/x-empty (empty)';
  if (text.startsWith('%PDF')) return 'application/pdf (PDF document)';
  if (text.startsWith('PK\u0003\u0004')) return 'application/zip (Zip archive data)';
  if (!/^[\t\n\r\x20-\x7e]*$/.test(text)) return 'application/octet-stream (data)';
  const trimmed = text.trimStart();
  if (/^<(!doctype html|html|head|body)/i.test(trimmed)) return 'text/html (HTML document, ASCII text)';
  if (/^[[{]/.test(trimmed)) return 'application/json (JSON text data)';
  return 'text/plain (ASCII text)';
}
