import { ResponseValidationError, toIssues, ValidationError, type ValidationIssue } from '@x/core';
import type * as z from 'zod/mini';
import { compileCheck } from './check.js';

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
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  let issues = result.error.issues;
  if (allowUnknownFields) {
    issues = issues.filter((issue) => issue.code !== 'unrecognized_keys');
    if (issues.length === 0) return input as z.output<S>;
  }
  throw new ValidationError(text(what), describeIssues(issues, schema));
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

function describeIssues(issues: readonly z.core.$ZodIssue[], schema: z.ZodMiniType): ValidationIssue[] {
  const described: ValidationIssue[] = [];
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys') {
      described.push(...toIssues({ issues: [issue] } as unknown as z.core.$ZodError));
      continue;
    }
    const known = fieldsAt(schema as unknown as z.core.$ZodType, issue.path);
    for (const key of issue.keys) {
      const guess = closest(key, known);
      described.push({
        path: [...issue.path, key].map(String).join('.'),
        message: `unknown field${guess ? ` (did you mean "${guess}"?)` : ''}`,
      });
    }
  }
  // The advice once, after the last unknown field, rather than on every one of them.
  for (let i = described.length - 1; i >= 0; i--) {
    if (!described[i]!.message.startsWith('unknown field')) continue;
    described[i] = { ...described[i]!, message: `${described[i]!.message}; ${OPT_OUT}` };
    break;
  }
  return described;
}

/** The fields of the object a path leads to, for suggestions. */
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
