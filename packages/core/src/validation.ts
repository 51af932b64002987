import * as z from 'zod/mini';
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

/** Validates a method's input before anything is sent; the error names every bad field. */
export function parseInput<S extends z.ZodMiniType>(schema: S, input: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(what, toIssues(result.error));
  return result.data;
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
  const type = contentType ? `content-type ${contentType}` : 'no content-type';
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
