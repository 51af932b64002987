/**
 * The client's text frames: `{"type": "UpdateConfiguration" | "ForceEndpoint" | "KeepAlive" | "Terminate", …}`.
 * Anything else is refused as the closures table words it (3006: "Invalid JSON: …", "Invalid Message: …",
 * "Invalid Message Type: …"). Size and nesting are checked before `JSON.parse`, so a hostile frame costs a
 * bounded scan, never a deep parse: configuration messages are a few hundred bytes, and 1000 keyterms fit.
 */
import { jsonTextDepth } from '../../kit/json-depth.js';
import { MESSAGE } from './closures.js';

export const MAX_TEXT_BYTES = 64 * 1024;
export const MAX_JSON_DEPTH = 16;

export type ClientMessage =
  | { type: 'UpdateConfiguration'; fields: Record<string, unknown> }
  | { type: 'ForceEndpoint' }
  | { type: 'KeepAlive' }
  | { type: 'Terminate' };

const TYPES = new Set(['UpdateConfiguration', 'ForceEndpoint', 'KeepAlive', 'Terminate']);

export function parseClientMessage(data: Buffer): { message: ClientMessage } | { error: string } {
  if (data.length > MAX_TEXT_BYTES) {
    return {
      error: MESSAGE.invalidMessage(`a text message of ${data.length} bytes (at most ${MAX_TEXT_BYTES})`),
    };
  }
  const text = data.toString('utf8');
  if (jsonTextDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    return { error: MESSAGE.invalidMessage(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`) };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: MESSAGE.invalidJson(text) };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { error: MESSAGE.invalidMessage(text) };
  }
  const fields = value as Record<string, unknown>;
  const type = Object.hasOwn(fields, 'type') ? fields.type : undefined;
  if (typeof type !== 'string') return { error: MESSAGE.invalidMessage(text) };
  if (!TYPES.has(type)) return { error: MESSAGE.invalidMessageType(type) };
  if (type === 'UpdateConfiguration') return { message: { type, fields } };
  return { message: { type } as ClientMessage };
}
