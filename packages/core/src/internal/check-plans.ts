import type * as z from 'zod/mini';

/** What both forms of a compiled check (closures, generated code) read of a schema, the same way. */

type Node = z.core.$ZodType;
export type Def = z.core.$ZodTypeDef & Record<string, any>;

/**
 * A zod/mini schema turned into a plain predicate, built once per schema: "would zod accept this value
 * and return it unchanged?" (`compiled-check.ts` says why and for which schemas).
 *
 * `looseInputs`: strict objects accept unknown keys (an input's `allowUnknownFields` opt-out); a
 * stripping object never does, since zod would drop them.
 */
export type Check = (value: unknown, looseInputs?: boolean) => boolean;

const OBJECT_PROTOTYPE = Object.prototype;
const hasOwn = (value: object, key: string) => Object.hasOwn(value, key);

/** Kinds of values, as bits, for what a node accepts and where its "no" may not be zod's. */
export const KIND = {
  string: 1,
  number: 2,
  boolean: 4,
  null: 8,
  undefined: 16,
  /** A plain object (JSON's); any other object (a Date, a null-prototype one) is `other`. */
  object: 32,
  array: 64,
  other: 128,
  all: 255,
} as const;

export function kindsOf(values: Iterable<unknown>): number {
  let kinds = 0;
  for (const value of values) {
    const type =
      value === null
        ? 'null'
        : Array.isArray(value)
          ? 'array'
          : isPlainObject(value) || typeof value !== 'object'
            ? typeof value
            : 'other';
    kinds |= KIND[type as keyof typeof KIND] ?? KIND.other;
  }
  return kinds;
}

/**
 * What `build` made of a node: its predicate, the kinds of value it can accept, and the kinds for which
 * its "no" may hide zod's "yes, changed" (a stripping object, a rewriting check, a default; any object
 * check, since zod copies a Date or a null-prototype object into a plain one). A union may only try an
 * option after those whose "no" is zod's for the kinds it accepts: zod takes the first option that
 * accepts, changed or not.
 */
export interface Compiled {
  check: Check;
  accepts: number;
  inexact: number;
}

/** An object zod copies into an equal one: a plain object without an own `__proto__` (zod drops that key). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === OBJECT_PROTOTYPE &&
    !hasOwn(value, '__proto__')
  );
}

/** A string format (`z.email()`, `z.url()`) is a schema and its own check. */
export function isFormat(node: Node): boolean {
  return node._zod.traits.has('$ZodCheck');
}

/**
 * An array's length checks (`z.minLength(1)`) as [min, max]; undefined when it has none, or a check
 * of another kind (a refinement), which goes to zod.
 */
export function lengthBounds(def: Def): [number, number] | undefined {
  const checks = def.checks as Node[] | undefined;
  if (!checks?.length) return undefined;
  let min = 0;
  let max = Number.POSITIVE_INFINITY;
  for (const check of checks) {
    const d = check._zod.def as Def;
    if (d.check === 'min_length') min = Math.max(min, d.minimum);
    else if (d.check === 'max_length') max = Math.min(max, d.maximum);
    else if (d.check === 'length_equals') {
      min = Math.max(min, d.length);
      max = Math.min(max, d.length);
    } else return undefined;
  }
  return [min, max];
}

/** The object's fields and what happens to keys the shape does not name. */
export interface ObjectPlan {
  keys: string[];
  fields: Compiled[];
  /**
   * An absent field: 'ok' stays absent (optional in and out); 'probe' stays absent if the field's
   * schema accepts undefined unchanged (a union with an optional and a default option), otherwise
   * zod fills it in or refuses; 'no' is refused or filled in.
   */
  absent: Array<'ok' | 'probe' | 'no'>;
  /** keep: loose; strict: refused unless loose inputs; strip: refused (zod would drop them); else checked. */
  extra: 'keep' | 'strict' | 'strip' | Compiled;
}

export function objectPlan(def: Def, compile: (node: Node) => Compiled | string): ObjectPlan | string {
  const shape = def.shape as Record<string, Node>;
  if (Object.getOwnPropertySymbols(shape).length > 0) return 'object with symbol keys';
  const keys = Object.keys(shape);
  if (keys.includes('__proto__')) return 'object with a __proto__ field';
  const fields: Compiled[] = [];
  const absent: ObjectPlan['absent'] = [];
  for (const key of keys) {
    const field = compile(shape[key]!);
    if (typeof field === 'string') return `${key}: ${field}`;
    fields.push(field);
    const zod = shape[key]!._zod;
    const omittable = zod.optin !== undefined && zod.optout === 'optional';
    absent.push(omittable ? (zod.optin === 'optional' ? 'ok' : 'probe') : 'no');
  }
  const catchall = def.catchall as Node | undefined;
  const catchallType = (catchall?._zod.def as Def | undefined)?.type;
  let extra: ObjectPlan['extra'];
  if (!catchall) extra = 'strip';
  else if (catchallType === 'never') extra = 'strict';
  else if (catchallType === 'unknown' || catchallType === 'any') extra = 'keep';
  else {
    const compiled = compile(catchall);
    if (typeof compiled === 'string') return `(catchall): ${compiled}`;
    extra = compiled;
  }
  return { keys, fields, absent, extra };
}
