import { readBody } from '../../kit/body.js';
import type { Reply } from '../../kit/reply.js';
import { parseJsonBody } from '../model/json-body.js';
import { MAX_PARAMS_BYTES } from '../model/params.js';
import { fail } from './respond.js';

/** A `POST /v2/transcript` body read once: its JSON, or the answer that refuses it. */
export type ParamsBody = { value: unknown } | { reply: Reply };

/**
 * Reads the body once, bounded: a declared `Content-Length` over the limit is refused before a byte is read,
 * and a body without one stops being read at the limit. Both answers close the connection, since the rest
 * of the body is never read.
 */
export async function readParamsBody(request: Request): Promise<ParamsBody> {
  const read = await readBody(request, MAX_PARAMS_BYTES);
  if ('hungUp' in read) {
    // The client closed the connection mid-body: nobody reads this answer, and it is no server failure.
    return { reply: fail(400, 'Invalid request body: the request ended before its body did.') };
  }
  if ('tooLarge' in read) {
    return {
      reply: {
        ...fail(413, `Request body larger than ${MAX_PARAMS_BYTES} bytes.`),
        headers: { Connection: 'close' },
      },
    };
  }
  const parsed = parseJsonBody(read.bytes.toString('utf8'));
  return 'error' in parsed ? { reply: fail(400, parsed.error) } : parsed;
}

/** The model a create request counts against: the first of `speech_models`, else `default`. */
export function modelOfBody(body: ParamsBody): string {
  if (!('value' in body)) return 'default';
  const value = body.value as { speech_models?: unknown } | null;
  const first =
    typeof value === 'object' && value !== null && Array.isArray(value.speech_models)
      ? (value.speech_models as unknown[])[0]
      : undefined;
  return typeof first === 'string' ? first : 'default';
}
