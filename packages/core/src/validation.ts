import * as z from 'zod/mini';
import { compileCheck } from './compiled-check.js';
import { ResponseValidationError, ValidationError, type ValidationIssue } from './errors.js';
import type { Logger } from './log.js';

export type ValidationMode = 'strict' | 'warn' | 'off';

export function toIssues(error: z.core.$ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: describe(issue) }));
}

/**
 * zod/mini ships no locale (the English one would cost more than this file), so its messages are all
 * "Invalid input". The issue's own details say what was wrong; a message set in a schema wins.
 */
function describe(issue: z.core.$ZodIssue): string {
  if (issue.message && issue.message !== 'Invalid input') return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'too_big':
    case 'too_small': {
      const bound = issue.code === 'too_big' ? issue.maximum : issue.minimum;
      const word =
        issue.code === 'too_big'
          ? issue.inclusive
            ? 'at most'
            : 'less than'
          : issue.inclusive
            ? 'at least'
            : 'more than';
      const unit =
        issue.origin === 'string'
          ? ' characters'
          : issue.origin === 'array' || issue.origin === 'set'
            ? ' items'
            : '';
      return `must be ${word} ${String(bound)}${unit}`;
    }
    case 'invalid_format':
      return issue.format === 'regex'
        ? `must match ${String((issue as { pattern?: unknown }).pattern)}`
        : `must be a valid ${issue.format}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return `unknown keys ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return 'matches none of the allowed forms';
    default:
      return issue.message;
  }
}

export interface ParseInputOptions {
  /**
   * Send fields a strict object does not know as given, for fields a newer service knows and this SDK
   * does not yet: unknown-key issues are dropped, and when nothing else is wrong the input itself is
   * returned (zod's result would be a copy without them).
   */
  allowUnknownFields?: boolean;
  /** Appended (`; <advice>`) to the last unknown field's message: why it matters, how to opt out. */
  unknownFieldAdvice?: string;
}

/**
 * Validates a method's input before anything is sent; the error names every bad field, and a field a
 * strict object does not know by its path with the closest known one (`speechModels` → "did you mean
 * "speech_models"?"). `what` may be a function when naming the call costs: it is called only on failure.
 */
export function parseInput<S extends z.ZodMiniType>(
  schema: S,
  input: unknown,
  what: string | (() => string),
  options: ParseInputOptions = {},
): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  let issues = result.error.issues;
  if (options.allowUnknownFields) {
    issues = issues.filter((issue) => issue.code !== 'unrecognized_keys');
    if (issues.length === 0) return input as z.infer<S>;
  }
  throw new ValidationError(
    typeof what === 'string' ? what : what(),
    describeInputIssues(issues, schema, options.unknownFieldAdvice),
  );
}

/** As `toIssues`, but each unknown key is an issue of its own, with a suggestion and the advice once. */
function describeInputIssues(
  issues: readonly z.core.$ZodIssue[],
  schema: z.ZodMiniType,
  advice: string | undefined,
): ValidationIssue[] {
  const described: ValidationIssue[] = [];
  let lastUnknown = -1;
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys') {
      described.push({ path: issue.path.map(String).join('.'), message: describe(issue) });
      continue;
    }
    const known = fieldsAt(schema as unknown as z.core.$ZodType, issue.path);
    for (const key of issue.keys) {
      const guess = closest(key, known);
      lastUnknown = described.length;
      described.push({
        path: [...issue.path, key].map(String).join('.'),
        message: `unknown field${guess ? ` (did you mean "${guess}"?)` : ''}`,
      });
    }
  }
  // The advice once, after the last unknown field, rather than on every one of them.
  const last = described[lastUnknown];
  if (advice && last) described[lastUnknown] = { ...last, message: `${last.message}; ${advice}` };
  return described;
}

/**
 * The fields of the object a path leads to, for suggestions. This walks zod's internals (`_zod.def`:
 * `shape`, `element`, `innerType`, `options`), which zod/mini exposes but does not document; a schema it
 * does not understand yields no fields, so at worst a suggestion is missing.
 */
function fieldsAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] {
  let nodes: z.core.$ZodType[] = [schema];
  for (const step of [...path, undefined]) {
    const next: z.core.$ZodType[] = [];
    for (const node of nodes.flatMap(unwrap)) {
      const def = node._zod.def as z.core.$ZodTypeDef & Record<string, any>;
      if (step === undefined) {
        if (def.type === 'object') return Object.keys(def.shape);
      } else if (def.type === 'object' && typeof step === 'string' && def.shape[step])
        next.push(def.shape[step]);
      else if (def.type === 'array' && typeof step === 'number') next.push(def.element);
    }
    nodes = next;
  }
  return [];
}

function unwrap(node: z.core.$ZodType): z.core.$ZodType[] {
  const def = node._zod.def as z.core.$ZodTypeDef & Record<string, any>;
  if (def.type === 'optional' || def.type === 'nullable') return unwrap(def.innerType);
  if (def.type === 'union') return (def.options as z.core.$ZodType[]).flatMap(unwrap);
  return [node];
}

/**
 * The known field a misspelling most likely meant: the same name in snake_case (`regularPrice`), or the
 * nearest by edit distance (a swap of two letters counts as one edit), within about a third of its length.
 */
export function closest(key: string, known: readonly string[]): string | undefined {
  const snake = key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toLowerCase();
  if (snake !== key && known.includes(snake)) return snake;
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(key.length / 3)) + 1;
  for (const candidate of known) {
    const distance = editDistance(snake, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        d[(i - 1) * cols + j]! + 1,
        d[i * cols + j - 1]! + 1,
        d[(i - 1) * cols + j - 1]! + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, d[(i - 2) * cols + j - 2]! + 1);
      d[i * cols + j] = value;
    }
  }
  return d[rows * cols - 1]!;
}

export interface ResponseContext {
  mode: ValidationMode;
  status: number;
  requestId: string | undefined;
  what: string | undefined;
  logger: Logger;
  /** Removes known secrets from the raw body kept on the error. */
  redact?: (body: unknown) => unknown;
  /**
   * The body as received, so that a failure can say when it was not JSON at all (an HTML page served
   * with 200), which "expected object" would hide. `url` gives the URL as sent, redacted.
   */
  raw?: { text: string; response: Response; method: string; url: () => string };
}

export function parseResponse<S extends z.ZodMiniType>(
  schema: S,
  body: unknown,
  ctx: ResponseContext,
): z.infer<S> {
  if (ctx.mode === 'off') return body as z.infer<S>;
  // The body zod would accept unchanged is used as it is, without zod's copy (compiled-check.ts); any
  // other body, and every schema that transforms, goes to zod for its result or its issues.
  if (compileCheck(schema)?.(body)) return body as z.infer<S>;
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const error = new ResponseValidationError({
    issues: notJsonIssue(body, ctx) ?? toIssues(result.error),
    requestId: ctx.requestId,
    status: ctx.status,
    body: ctx.redact ? ctx.redact(body) : body,
    ...(ctx.what ? { what: ctx.what } : {}),
  });
  if (ctx.mode === 'strict') throw error;
  ctx.logger.warn(error.message);
  return body as z.infer<S>;
}

/**
 * A 200 whose body is not JSON (parseBody kept the text as it was) or is empty: the schema's "expected
 * object" would send people looking at fields. Say what came back from where, and why that happens.
 */
function notJsonIssue(body: unknown, ctx: ResponseContext): ValidationIssue[] | undefined {
  const raw = ctx.raw;
  if (!raw || !(raw.text === '' || (typeof body === 'string' && body === raw.text))) return undefined;
  const contentType = raw.response.headers.get('content-type');
  const shownType = contentType && ctx.redact ? String(ctx.redact(contentType)) : contentType;
  const type = shownType ? `content-type ${shownType.slice(0, 100)}` : 'no content-type';
  const excerpt = String(ctx.redact ? ctx.redact(raw.text) : raw.text)
    .replace(/\s+/g, ' ')
    .trim();
  const shown =
    raw.text === ''
      ? 'an empty body'
      : `${JSON.stringify(excerpt.slice(0, 100))}${excerpt.length > 100 ? ' (first 100 characters)' : ''}`;
  return [
    {
      path: '',
      message:
        `expected JSON, but ${raw.method} ${raw.url()} answered ${ctx.status} with ${type} and ${shown}. Likely causes: ` +
        '(1) the base URL does not point at the API (a wrong host, path or prefix reaches a web page instead); ' +
        '(2) a maintenance, "coming soon" or login page answered in its place (a redirect to a login form ends in a 200 page); ' +
        '(3) a security plugin, firewall or CDN challenge page blocked the request.',
    },
  ];
}

/**
 * An enum that accepts values the service adds later: known values are typed for autocompletion,
 * unknown strings still parse, so a new status on the server breaks no one.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(
  values: T,
): z.ZodMiniType<T[number] | (string & {})> {
  return z.union([z.enum(values), z.string()]) as unknown as z.ZodMiniType<T[number] | (string & {})>;
}
