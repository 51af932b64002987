import { compileCheck, parseInput, ResponseValidationError, toIssues } from '@x/core';
import type * as z from 'zod/mini';

/**
 * Inputs are checked before anything is sent, and a field the schema does not know is an error: the store
 * would drop a misspelt `regular_prise` without a word. The error names the field and the closest known
 * one. `allowUnknownFields` (a client option) sends such fields as given, for fields a newer store knows
 * and this SDK does not yet.
 */
export function checkInput<S extends z.ZodMiniType>(
  schema: S,
  input: unknown,
  what: Lazy,
  allowUnknownFields: boolean,
): z.output<S> {
  // The fast "yes" uses the caller's object as the body, as zod's copy of it would have been.
  if (compileCheck(schema)?.(input, allowUnknownFields)) return input as z.output<S>;
  // The slow path (zod, the suggestions, the opt-out) is core's, shared with the other service packages.
  return parseInput(schema, input, what, { allowUnknownFields, unknownFieldAdvice: OPT_OUT });
}

/** One item of a response the core did not parse itself (a batch's items): the same fast "yes", then zod. */
export function checkItem<S extends z.ZodMiniType>(
  schema: S,
  raw: unknown,
  what: Lazy,
  requestId: string | undefined,
): z.output<S> {
  if (compileCheck(schema)?.(raw, false)) return raw as z.output<S>;
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new ResponseValidationError({
    issues: toIssues(parsed.error),
    status: 200,
    requestId,
    body: raw,
    what: text(what),
  });
}

/** What is being checked, for the error; a function when naming it costs (a batch names each item). */
type Lazy = string | (() => string);
const text = (what: Lazy) => (typeof what === 'string' ? what : what());

const OPT_OUT =
  'the store ignores fields it does not know, so this would be dropped silently. For a field your store knows and this SDK does not yet, create the client with allowUnknownFields: true (or use client.withOptions({ allowUnknownFields: true })); custom data belongs in meta_data';
