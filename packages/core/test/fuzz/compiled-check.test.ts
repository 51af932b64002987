import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { compileCheck, uncompiledReason } from '../../src/compiled-check.js';
import { parseInput } from '../../src/validation.js';
import {
  anyValue,
  CHANGES,
  mutate,
  paths,
  type Schema,
  schemaArbitrary,
  validOf,
} from './compiled-check-arbitraries.js';

/**
 * The compiled check stands in for zod only when it says yes, so a yes must be zod's answer: for random
 * schemas from the grammar it understands and random values (arbitrary JSON, values built to be valid,
 * and those with one place changed), in both forms (generated code, closures):
 * - check(v) => zod accepts v and returns a value deep-equal to v (nothing skipped, no transform lost);
 * - check(v, loose inputs) => parseInput with `allowUnknownFields` returns a value deep-equal to v;
 * - zod accepts v unchanged => check(v) says yes, so the fast path is taken (counted, and must be > 0).
 */

interface Tally {
  inputs: number;
  yes: number;
  validBuilt: number;
  validHits: number;
  fallbacks: number;
}

function judge(schema: Schema, value: unknown, built: boolean, tally: Tally): void {
  tally.inputs++;
  const parsed = schema.safeParse(value);
  const unchanged = parsed.success && isDeepStrictEqual(parsed.data, value);
  const shown = () => `${safeJson(value)} against ${schemaName(schema)}`;
  for (const how of ['generated', 'closures', 'cached'] as const) {
    // 'cached': the form parseResponse uses, where a wrapper calls its inner schema's own predicate.
    const check = how === 'cached' ? compileCheck(schema) : compileCheck(schema, how);
    if (!check) {
      tally.fallbacks++;
      continue;
    }
    const yes = check(value);
    if (yes) {
      tally.yes++;
      expect(unchanged, `check said yes (${how}) to ${shown()}`).toBe(true);
    }
    // Complete as well as sound: what zod keeps as it is, the check accepts.
    expect(yes, `check said no (${how}) to a value zod keeps unchanged: ${shown()}`).toBe(unchanged);
    if (built && unchanged) {
      tally.validBuilt++;
      if (yes) tally.validHits++;
    }
    if (check(value, true)) {
      let input: unknown;
      expect(() => {
        input = parseInput(schema, value, 'fuzz', { allowUnknownFields: true });
      }, `loose check said yes (${how}), parseInput threw: ${shown()}`).not.toThrow();
      expect(isDeepStrictEqual(input, value), `loose check (${how}) vs parseInput: ${shown()}`).toBe(true);
    }
  }
}

function safeJson(value: unknown): string {
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, 300);
  } catch {
    return String(value);
  }
}

/** The schema as a short text, for a failure's message. */
function schemaName(schema: unknown): string {
  const node = schema as { _zod: { def: Record<string, any>; traits: Set<string> } };
  const def = node._zod.def;
  const inner = (s: unknown) => schemaName(s);
  switch (def.type) {
    case 'object': {
      const kind = !def.catchall
        ? 'strip'
        : def.catchall._zod.def.type === 'never'
          ? 'strict'
          : def.catchall._zod.def.type === 'unknown'
            ? 'loose'
            : `catchall ${inner(def.catchall)}`;
      return `${kind}{${Object.entries(def.shape)
        .map(([k, v]) => `${k}: ${inner(v)}`)
        .join(', ')}}`;
    }
    case 'array':
      return `${inner(def.element)}[]`;
    case 'optional':
      return `${node._zod.traits.has('$ZodExactOptional') ? 'exact' : ''}optional(${inner(def.innerType)})`;
    case 'nullable':
      return `nullable(${inner(def.innerType)})`;
    case 'union':
      return `(${def.options.map(inner).join(' | ')})`;
    case 'record':
      return `record(${inner(def.valueType)})`;
    case 'tuple':
      return `[${def.items.map(inner).join(', ')}${def.rest ? `, ...${inner(def.rest)}` : ''}]`;
    default:
      return `${def.type}${def.checks?.length ? `+${def.checks.length} checks` : ''}`;
  }
}

const caseArbitrary = schemaArbitrary.chain((schema) =>
  fc.record({
    schema: fc.constant(schema),
    valid: validOf(schema),
    random: anyValue,
    pathPick: fc.nat(),
    changePick: fc.nat(),
  }),
);

describe('compiled checks agree with zod (property)', () => {
  for (const run of fuzzRuns(400)) {
    it(`random schemas and values, ${run.label}`, () => {
      const tally: Tally = { inputs: 0, yes: 0, validBuilt: 0, validHits: 0, fallbacks: 0 };
      fc.assert(
        fc.property(caseArbitrary, ({ schema, valid, random, pathPick, changePick }) => {
          judge(schema, valid, true, tally);
          judge(schema, random, false, tally);
          const all = paths(valid);
          const changed = mutate(valid, all[pathPick % all.length]!, CHANGES[changePick % CHANGES.length]!);
          judge(schema, changed, false, tally);
          // A list of them: the wrapper reuses the item's cached predicate.
          judge(z.array(schema), [valid, changed], false, tally);
          // A schema without a predicate says why.
          if (!compileCheck(schema, 'closures')) expect(uncompiledReason(schema)).toBeTypeOf('string');
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('compileCheck vs zod', run, tally.inputs);
      console.log(
        `compileCheck: ${tally.yes} yes; valid-by-construction values zod keeps: ${tally.validHits}/${tally.validBuilt} took the fast path; ${tally.fallbacks} checks fell back to zod`,
      );
      expect(tally.validHits).toBeGreaterThan(0);
      expect(tally.validHits).toBe(tally.validBuilt);
    });
  }
});
