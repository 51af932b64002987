import fc from 'fast-check';
import * as z from 'zod/mini';

/**
 * Random zod/mini schemas from the grammar `compileCheck` understands (and a few forms it must refuse),
 * each with an arbitrary of values built to be valid for it, and helpers that derive near misses from a
 * value. Shared by the compiled-check property tests.
 */

type Node = z.core.$ZodType;
type Def = Record<string, any>;
export type Schema = z.ZodMiniType;

const KEYS = ['id', 'name', 'status', 'words', 'meta', 'a', 'b'] as const;

const leaves: Array<fc.Arbitrary<Schema>> = [
  fc.constant(z.string()),
  fc.constant(z.string().check(z.minLength(2))),
  fc.constant(z.string().check(z.trim())),
  fc.constant(z.email()),
  fc.constant(z.number()),
  fc.constant(z.int()),
  fc.constant(z.number().check(z.gte(0))),
  fc.constant(z.boolean()),
  fc.constant(z.null()),
  fc.constant(z.enum(['queued', 'completed'])),
  fc.constant(z.literal('transcript')),
  fc.constant(z.literal(1)),
  fc.constant(z.unknown()),
  fc.constant(z.union([z.enum(['queued', 'completed']), z.string()])),
  fc.constant(z.never()),
  // Never compiled: a value zod changes.
  fc.constant(
    z.pipe(
      z.string(),
      z.transform((s: string) => s.length),
    ),
  ),
  fc.constant(z._default(z.string(), 'x')),
] as Array<fc.Arbitrary<Schema>>;

export const schemaArbitrary: fc.Arbitrary<Schema> = fc.letrec<{ node: Schema }>((tie) => {
  const node = tie('node');
  const shape = fc.dictionary(fc.constantFrom(...KEYS), node, { maxKeys: 4 });
  return {
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      ...leaves,
      shape.map((s) => z.looseObject(s)),
      shape.map((s) => z.strictObject(s)),
      shape.map((s) => z.object(s)),
      fc.tuple(shape, node).map(([s, rest]) => z.catchall(z.object(s), rest)),
      shape.map((s) =>
        z.looseObject(Object.fromEntries(Object.entries(s).map(([k, v]) => [k, z.exactOptional(v)]))),
      ),
      node.map((n) => z.array(n)),
      node.map((n) => z.array(n).check(z.minLength(1), z.maxLength(2))),
      node.map((n) => z._default(n, 'fallback')),
      node.map((n) => z.optional(n)),
      node.map((n) => z.nullable(n)),
      fc.tuple(node, node).map(([a, b]) => z.union([a, b])),
      node.map((n) => z.record(z.string(), n)),
      fc.tuple(node, node).map(([a, b]) => z.tuple([a, b])),
      fc.tuple(node, node).map(([a, rest]) => z.tuple([a], rest)),
    ),
  };
}).node;

const FORMATTED = [
  'ada@example.com',
  'x@y.io',
  'https://example.com/audio.mp3',
  '2026-11-27T02:00:00Z',
  '2026-11-27T02:00:00',
  '2026-11-27',
  '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  'presence-room',
  'private-room',
  'room',
  '  ',
  'en',
];

/** Values the schema should accept (zod decides; a few, like an untrimmed string under `z.trim()`, it changes). */
export function validOf(schema: Schema): fc.Arbitrary<unknown> {
  const node = schema as unknown as Node;
  const def = node._zod.def as Def;
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, Node>;
      const entries = Object.entries(shape).map(([key, field]) => {
        const omittable = field._zod.optin !== undefined;
        const value = validOf(field as unknown as Schema);
        return omittable
          ? fc.option(
              value.map((v) => [key, v] as const),
              { nil: undefined },
            )
          : value.map((v) => [key, v] as const);
      });
      const catchall = def.catchall as Node | undefined;
      const catchallType = catchall?._zod.def.type;
      const extra =
        catchall && catchallType !== 'never'
          ? fc.dictionary(
              fc.string({ maxLength: 6 }).filter((k) => !(k in shape) && k !== '__proto__'),
              validOf(catchall as unknown as Schema),
              { maxKeys: 2 },
            )
          : fc.constant({});
      return fc.tuple(fc.tuple(...entries), extra).map(([fields, more]) => {
        const out: Record<string, unknown> = { ...more };
        for (const field of fields) if (field) out[field[0]] = field[1];
        return out;
      });
    }
    case 'array':
      return def.checks?.length
        ? fc.array(validOf(def.element), { minLength: 1, maxLength: 2 })
        : fc.array(validOf(def.element), { maxLength: 3 });
    case 'default':
      return validOf(def.innerType);
    case 'optional':
      return fc.option(validOf(def.innerType), { nil: undefined });
    case 'nullable':
      return fc.option(validOf(def.innerType), { nil: null });
    case 'union':
      return fc.oneof(...(def.options as Schema[]).map(validOf));
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 6 }), validOf(def.valueType), { maxKeys: 3 });
    case 'tuple':
      return fc
        .tuple(
          fc.tuple(...(def.items as Schema[]).map(validOf)),
          def.rest ? fc.array(validOf(def.rest), { maxLength: 2 }) : fc.constant([]),
        )
        .map(([items, rest]) => [...items, ...rest]);
    case 'enum':
    case 'literal':
      return fc.constantFrom(...[...(node._zod.values as Set<unknown>)]);
    case 'string': {
      if (!node._zod.traits.has('$ZodCheck') && !def.checks?.length) return fc.string({ maxLength: 8 });
      // A format or a pattern: the candidates it accepts (real schemas have urls, dates, ids).
      const fits = FORMATTED.filter((candidate) => schema.safeParse(candidate).success);
      return fits.length > 0 ? fc.constantFrom(...fits) : fc.string({ minLength: 2, maxLength: 8 });
    }
    case 'number':
      return def.checks?.length || node._zod.traits.has('$ZodCheck')
        ? fc.integer({ min: 0, max: 1000 })
        : fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'unknown':
      return fc.jsonValue({ maxDepth: 2 });
    case 'never':
      return fc.constant(undefined);
    default:
      // pipe, default: strings suit both.
      return fc.string({ maxLength: 4 });
  }
}

/** Anything a response or an input might hold: JSON, and the few non-JSON values a caller might pass. */
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    undefined,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    -0,
    new Date(0),
    Object.create(null),
    JSON.parse('{"__proto__":{"id":"x"},"id":"x"}'),
    [undefined],
  ),
);

/** Every place in a value, as a path, to mutate one at a time. */
export function paths(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (value === null || typeof value !== 'object' || value instanceof Date) return [at];
  const inner = Object.keys(value).flatMap((k) =>
    paths((value as Record<string, unknown>)[k], [...at, Array.isArray(value) ? Number(k) : k]),
  );
  return [at, ...inner];
}

type Change = (parent: any, key: string | number) => void;

export const CHANGES: Change[] = [
  // Arrays lose an item rather than get a hole: JSON has no holes (zod would fill one with undefined).
  (p, k) => (Array.isArray(p) ? p.splice(Number(k), 1) : delete p[k]),
  (p, k) => (p[k] = null),
  (p, k) => (p[k] = 123),
  (p, k) => (p[k] = 1.5),
  (p, k) => (p[k] = Number.NaN),
  (p, k) => (p[k] = 'x'),
  (p, k) => (p[k] = ' x '),
  (p, k) => (p[k] = []),
  (p, k) => (p[k] = {}),
  (p, k) => (p[k] = true),
  (p, k) => (p[k] = undefined),
  (p, k) => {
    if (p[k] && typeof p[k] === 'object' && !Array.isArray(p[k])) p[k].unknown_field = 1;
  },
  (p, k) => {
    if (p[k] && typeof p[k] === 'object' && !Array.isArray(p[k]))
      Object.defineProperty(p[k], '__proto__', { value: 1, enumerable: true });
  },
  (p, k) => {
    if (Array.isArray(p[k])) p[k].push(p[k][0]);
  },
];

/** A copy of `root` with one change at `path`. */
export function mutate(root: unknown, path: Array<string | number>, change: Change): unknown {
  const holder = { root: structuredClone(root) } as Record<string | number, unknown>;
  let parent: any = holder;
  let key: string | number = 'root';
  for (const step of path) {
    parent = parent[key];
    key = step;
  }
  change(parent, key);
  return holder.root;
}
