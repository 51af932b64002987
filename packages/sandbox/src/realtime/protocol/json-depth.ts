import { valueDeeperThan as deeperThan, jsonTextDepth as textDepth } from '../../kit/json-depth.js';

/**
 * The realtime emulator's bound on user JSON (client event data, presence `user_info`, signed-in `user_data`),
 * which it serialises again for every receiver. Pusher documents no depth limit; 100 levels is far beyond any
 * real payload (a 10 KB message cannot hold much more than that usefully) and far below where serialising it
 * again would fail. The measures are the kit's.
 */
export const MAX_USER_JSON_DEPTH = 100;

/** The deepest nesting in JSON text, counted up to one past `limit` (see the kit's `jsonTextDepth`). */
export function jsonTextDepth(text: string, limit = MAX_USER_JSON_DEPTH): number {
  return textDepth(text, limit);
}

/** Whether a parsed value nests deeper than `limit` (see the kit's `valueDeeperThan`). */
export function valueDeeperThan(value: unknown, limit = MAX_USER_JSON_DEPTH): boolean {
  return deeperThan(value, limit);
}
