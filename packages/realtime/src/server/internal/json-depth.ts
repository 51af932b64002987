import { jsonValueIssue, type ValidationIssue } from '@x/core';

/**
 * Nesting depth of the JSON this SDK encodes (event data, presence data, user data) or decodes (webhook
 * bodies). `JSON.stringify` recurses and runs out of stack a few thousand levels down, with a raw `RangeError`
 * that names nothing; so depth is measured first, with loops, never recursion, so that measuring cannot
 * overflow either. The measures are @x/core's (`jsonTextDepth`, `jsonValueIssue`); the limit is
 * this package's.
 *
 * Pusher documents no depth limit; 100 levels is far beyond any real payload (10 KB of data cannot usefully
 * hold more) and far below where serialising fails. The sandbox refuses client data past the same depth.
 */
export const MAX_JSON_DEPTH = 100;

/** Why `JSON.stringify(value)` would fail or nest deeper than `MAX_JSON_DEPTH`, as an issue under `path`. */
export function jsonDataIssue(value: unknown, path: string): ValidationIssue | undefined {
  return jsonValueIssue(value, path, MAX_JSON_DEPTH);
}
