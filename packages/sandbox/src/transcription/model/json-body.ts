import { jsonTextDepth } from '../../kit/json-depth.js';

/**
 * Request bodies as JSON, refused before parsing when they nest deeper than any real request does. Why: a
 * body like `[[[[…]]]]` 6,000 deep parses, but serialising it again (the journal, the answer) overflows the
 * stack, so a transcript made from it could never be saved, shown or deleted. The service's own JSON parser
 * refuses such bodies as a bad request, and so does this one, before anything is created.
 */

/** The deepest real transcript body is a few levels (`custom_spelling`, `speech_understanding`). */
export const MAX_JSON_DEPTH = 64;

export type JsonBody = { value: unknown } | { error: string };

/** A request body's JSON, or the 400 message that names what is wrong with it. */
export function parseJsonBody(text: string): JsonBody {
  if (text.trim() === '') {
    return { error: 'Invalid request body: the body is empty; send JSON with audio_url and speech_models.' };
  }
  if (jsonTextDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    return { error: `Invalid request body: JSON nested deeper than ${MAX_JSON_DEPTH} levels.` };
  }
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    // V8 quotes the body in its message; the position says enough, and the body may hold a webhook secret.
    const why = (error as Error).message.replace(/, ".*" is not valid JSON$/s, '');
    return { error: `Invalid request body: not valid JSON (${why}).` };
  }
}
