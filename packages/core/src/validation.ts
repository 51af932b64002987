import * as z from 'zod/mini';
import { ResponseValidationError, ValidationError, type ValidationIssue } from './errors.js';
import type { Logger } from './log.js';

export type ValidationMode = 'strict' | 'warn' | 'off';

export function toIssues(error: z.core.$ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
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
    issues: toIssues(result.error),
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
 * An enum that accepts values the service adds later: known values are typed for autocompletion,
 * unknown strings still parse, so a new status on the server breaks no one.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(
  values: T,
): z.ZodMiniType<T[number] | (string & {})> {
  return z.union([z.enum(values), z.string()]) as unknown as z.ZodMiniType<T[number] | (string & {})>;
}
