import { compileCheck } from '@x/core';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { batchItemError } from '../../src/schemas/common.js';
import {
  customer,
  customerCreateInput,
  customerListParams,
  customerUpdateInput,
} from '../../src/schemas/customers.js';
import {
  order,
  orderInput,
  orderListParams,
  orderNote,
  orderNoteInput,
  refund,
  refundInput,
} from '../../src/schemas/orders.js';
import {
  product,
  productInput,
  productListParams,
  term,
  termInputSchema,
  variation,
  variationInput,
} from '../../src/schemas/products.js';
import { webhook, webhookCreateInput, webhookUpdateInput } from '../../src/schemas/webhooks.js';

/**
 * The compiled predicate must say "yes" exactly when zod accepts a value unchanged (it then stands in for
 * zod's copy), for every schema the client uses, in both forms (generated code and closures). Values:
 * a valid one built from the schema, then every field of it deleted, nulled, retyped, or given a sibling.
 */

type Node = z.core.$ZodType;
type Def = Record<string, any>;

const STRINGS = ['1.00', 'ada@example.com', 'https://example.com/hook', 'order.created', 'EUR', 'x', ''];
const NUMBERS = [1, 0, 2.5];

/** A value the schema accepts, where one can be found among a few candidates. */
function sample(node: Node): unknown {
  const def = node._zod.def as Def;
  const accepts = (value: unknown) => (node as unknown as z.ZodMiniType).safeParse(value).success;
  switch (def.type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(def.shape as Record<string, Node>).map(([k, v]) => [k, sample(v)]),
      );
    case 'array':
      return [sample(def.element)];
    case 'optional':
      // A field that may only be absent (z.optional(z.never())).
      return def.innerType._zod.def.type === 'never' ? undefined : sample(def.innerType);
    case 'nullable':
      return sample(def.innerType);
    case 'union':
      return sample(def.options[0]);
    case 'record':
      return { self: sample(def.valueType) };
    case 'enum':
      return Object.values(def.entries)[0];
    case 'literal':
      return def.values[0];
    case 'string':
      return STRINGS.find(accepts) ?? 'x';
    case 'number':
      return NUMBERS.find(accepts) ?? 1;
    case 'boolean':
      return true;
    case 'date':
      return new Date(0);
    default:
      return null;
  }
}

/** Every value reachable from `root`, as a path, to mutate one at a time. */
function paths(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (value === null || typeof value !== 'object' || value instanceof Date) return [at];
  const inner = Object.entries(value).flatMap(([k, v]) =>
    paths(v, [...at, Array.isArray(value) ? Number(k) : k]),
  );
  return [at, ...inner];
}

function mutate(
  root: unknown,
  path: Array<string | number>,
  change: (parent: any, key: string | number) => void,
) {
  const copy = structuredClone(root);
  if (path.length === 0) {
    const holder = { root: copy };
    change(holder, 'root');
    return holder.root;
  }
  let parent: any = copy;
  for (const step of path.slice(0, -1)) parent = parent[step];
  change(parent, path.at(-1)!);
  return copy;
}

const CHANGES: Array<(parent: any, key: string | number) => void> = [
  (p, k) => delete p[k],
  (p, k) => (p[k] = null),
  (p, k) => (p[k] = 123),
  (p, k) => (p[k] = Number.NaN),
  (p, k) => (p[k] = 'x'),
  (p, k) => (p[k] = []),
  (p, k) => (p[k] = {}),
  (p, k) => (p[k] = true),
  (p, k) => (p[k] = undefined),
  (p, k) => {
    if (p[k] && typeof p[k] === 'object' && !Array.isArray(p[k])) p[k].unknown_field = 1;
  },
];

const schemas = {
  order,
  product,
  variation,
  term,
  customer,
  webhook,
  orderNote,
  refund,
  batchItemError,
  orderInput,
  productInput,
  variationInput,
  termInputSchema,
  customerCreateInput,
  customerUpdateInput,
  webhookCreateInput,
  webhookUpdateInput,
  orderNoteInput,
  refundInput,
  orderListParams,
  productListParams,
  customerListParams,
} as Record<string, z.ZodMiniType>;

describe('compiled checks agree with zod', () => {
  for (const [name, schema] of Object.entries(schemas)) {
    it(name, () => {
      const generated = compileCheck(schema, 'generated');
      const closures = compileCheck(schema, 'closures');
      expect(generated, 'every schema the client uses compiles').toBeTypeOf('function');
      expect(closures).toBeTypeOf('function');
      const valid = sample(schema as unknown as Node);
      expect(schema.safeParse(valid).success, 'the sample is valid').toBe(true);
      const values = [
        valid,
        ...paths(valid).flatMap((path) => CHANGES.map((change) => mutate(valid, path, change))),
      ];
      let accepted = 0;
      for (const value of values) {
        const parsed = schema.safeParse(value);
        const unchanged = parsed.success && JSON.stringify(parsed.data) === JSON.stringify(value);
        // Loose mode (allowUnknownFields): what counts is that zod's only complaint is unknown keys.
        const onlyUnknown =
          parsed.success || parsed.error.issues.every((i) => i.code === 'unrecognized_keys');
        const shown = JSON.stringify(value)?.slice(0, 200);
        expect(generated!(value, false), shown).toBe(unchanged);
        expect(closures!(value, false), shown).toBe(unchanged);
        expect(generated!(value, true), shown).toBe(onlyUnknown);
        expect(closures!(value, true), shown).toBe(onlyUnknown);
        if (unchanged) accepted++;
      }
      expect(accepted).toBeGreaterThan(1);
    });
  }
});
