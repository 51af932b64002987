import * as z from 'zod/mini';
import { generateCheck } from './internal/check-code.js';
import {
  type Check,
  type Compiled,
  type Def,
  isFormat,
  isPlainObject,
  KIND,
  kindsOf,
  lengthBounds,
  objectPlan,
} from './internal/check-plans.js';

/**
 * Schemas turned into plain predicates (`Check`), built once per schema.
 *
 * Why: zod parses by interpretation and copies every object it walks. Checking a 1.2 KB response cost
 * about as much as the whole fetch, and a 100-order batch spent more time in zod than in JSON.parse. The
 * predicate answers without allocating; when it says yes the value is used as it is, when it says no the
 * caller runs zod, which reports the issues (or applies a transform). So zod stays the one definition
 * and the one source of error messages; this is only a faster "yes".
 *
 * A predicate exists only for schemas made of what it understands (objects of every kind, arrays,
 * tuples, unions, optional, nullable, records, enums, literals, never, primitives and their checks) and
 * built by a zod release it was tested against. Anything that could change a value (defaults, pipes,
 * transforms) makes `compileCheck` return undefined: such schemas always go to zod.
 *
 * `Check` itself lives beside the plans both compilers read (`internal/check-plans.ts`), so neither
 * needs this module.
 */
export type { Check } from './internal/check-plans.js';

/**
 * The zod releases whose internals (`_zod.def`, `optin`/`optout`, traits, `run`) this reads and whose
 * behaviour the property test (test/fuzz/compiled-check.test.ts) compared it with. Any other release: no
 * predicate, zod parses everything. Add a minor only after that test passes against it.
 */
const TESTED_ZOD = { major: 4, minors: [6] } as const;

type Node = z.core.$ZodType;

/** Per schema node (so a wrapper made per call, `z.array(item)`, reuses its item's work); a string says why not. */
const nodes = new WeakMap<object, Compiled | string>();
/** Per schema passed to `compileCheck`: the fastest form this runtime allows. */
const roots = new WeakMap<object, Check | null>();
const PARSE_CONTEXT = { async: false } as const;

/** Whether `new Function` works here; learnt once, so a CSP that forbids it reports one violation. */
let canGenerate: boolean | undefined;

/** `how` is for tests, which compare both forms with zod; without it the fastest form is cached per schema. */
export function compileCheck(schema: z.ZodMiniType, how?: 'generated' | 'closures'): Check | undefined {
  const node = schema as unknown as Node;
  if (how) {
    const compiled = compile(node);
    if (typeof compiled === 'string') return undefined;
    return how === 'closures' ? compiled.check : generateCheck(node, compile, () => undefined);
  }
  let check = roots.get(schema);
  if (check === undefined) {
    const compiled = compile(node);
    check = typeof compiled === 'string' ? null : compiled.check;
    // A list wrapper made per call (`z.array(item)`) loops over its item's own cached predicate: no
    // code is generated again for every call.
    const inner = check && listOf(node);
    const item = inner && compileCheck(inner as unknown as z.ZodMiniType);
    if (item) {
      check = (value, loose) => {
        if (!Array.isArray(value)) return false;
        for (let i = 0; i < value.length; i++) if (!item(value[i], loose)) return false;
        return true;
      };
    } else if (check && canGenerate !== false && !z.config().jitless) {
      const generated = generateCheck(node, compile, (n) => (n === node ? undefined : roots.get(n)));
      canGenerate = generated !== undefined;
      check = generated ?? check;
    }
    roots.set(schema, check);
  }
  return check ?? undefined;
}

/** Why a schema has no predicate (`path: reason`), or undefined when it has one. For tests and reports. */
export function uncompiledReason(schema: z.ZodMiniType): string | undefined {
  const compiled = compile(schema as unknown as Node);
  return typeof compiled === 'string' ? compiled : undefined;
}

/** The item schema of a plain array (no length checks). */
function listOf(node: Node): Node | undefined {
  const def = node._zod.def as Def;
  return def.type === 'array' && !def.checks?.length ? def.element : undefined;
}

/** The node's closures, memoized; a node met again while being built (a recursive schema) is refused. */
export function compile(node: Node): Compiled | string {
  const known = nodes.get(node);
  if (known !== undefined) return known;
  nodes.set(node, 'recursive schema');
  const result = tested(node) ? build(node) : `zod ${versionOf(node)} (tested: 4.6)`;
  nodes.set(node, result);
  return result;
}

function tested(node: Node): boolean {
  const version = node._zod.version as { major?: number; minor?: number } | undefined;
  return (
    version?.major === TESTED_ZOD.major && (TESTED_ZOD.minors as readonly number[]).includes(version.minor!)
  );
}

function versionOf(node: Node): string {
  const v = node._zod.version as { major?: number; minor?: number; patch?: number } | undefined;
  return v ? `${v.major}.${v.minor}.${v.patch}` : 'of unknown version';
}

const made = (check: Check, accepts: number, inexact = 0): Compiled => ({ check, accepts, inexact });

function build(node: Node): Compiled | string {
  const def = node._zod.def as Def;
  const checked = def.checks !== undefined && def.checks.length > 0;
  const type = def.type as string;
  if (checked && !LEAVES.has(type) && !(type === 'array' && lengthBounds(def)))
    return `${type} with checks (a refinement)`;
  switch (type) {
    case 'object':
      return object(def);
    case 'array': {
      const element = compile(def.element);
      if (typeof element === 'string') return `[]: ${element}`;
      const check = element.check;
      const bounds = lengthBounds(def);
      const [min, max] = bounds ?? [0, Number.POSITIVE_INFINITY];
      return made(
        (value, loose) => {
          if (!Array.isArray(value) || value.length < min || value.length > max) return false;
          for (let i = 0; i < value.length; i++) if (!check(value[i], loose)) return false;
          return true;
        },
        KIND.array,
        // A length check given its own `when` may let zod skip it where this refuses.
        element.inexact || checked ? KIND.array : 0,
      );
    }
    case 'tuple':
      return tuple(def);
    case 'optional': {
      const inner = compile(def.innerType);
      if (typeof inner === 'string') return inner;
      const check = inner.check;
      // `z.exactOptional`: absent is fine, an explicit undefined is not. Around a default, undefined
      // becomes the default.
      if (node._zod.traits.has('$ZodExactOptional') || def.innerType._zod.optin === 'defaulted') return inner;
      return made(
        (value, loose) => value === undefined || check(value, loose),
        inner.accepts | KIND.undefined,
        inner.inexact,
      );
    }
    case 'nullable': {
      const inner = compile(def.innerType);
      if (typeof inner === 'string') return inner;
      const check = inner.check;
      return made(
        (value, loose) => value === null || check(value, loose),
        inner.accepts | KIND.null,
        inner.inexact,
      );
    }
    case 'union':
      return union(def);
    case 'record':
      return record(def);
    case 'enum':
    case 'literal': {
      const values = node._zod.values;
      if (!values) return `${type} without values`;
      return made(checked ? leaf(node) : (value) => values.has(value as never), kindsOf(values));
    }
    case 'unknown':
    case 'any':
      return made(() => true, KIND.all);
    case 'string':
      return primitive(node, def, KIND.string, (value) => typeof value === 'string');
    case 'number':
      // zod's number refuses NaN and the infinities; JSON cannot carry them anyway.
      return primitive(node, def, KIND.number, (value) => Number.isFinite(value));
    case 'boolean':
      return primitive(node, def, KIND.boolean, (value) => typeof value === 'boolean');
    case 'null':
      return made((value) => value === null, KIND.null);
    case 'undefined':
      return made((value) => value === undefined, KIND.undefined);
    case 'never':
      // A field that may only be absent (`z.optional(z.never())`): present, zod refuses it with its message.
      return made(() => false, 0);
    case 'date':
      return made(leaf(node), def.coerce ? KIND.all : KIND.other, def.coerce ? KIND.all : 0);
    case 'default':
    case 'prefault': {
      // Only an absent value is replaced (or, for prefault, replaced and parsed): any other is the
      // inner schema's. Inexact, since zod accepts undefined with a change.
      const inner = compile(def.innerType);
      if (typeof inner === 'string') return `${type}: ${inner}`;
      const check = inner.check;
      return made(
        (value, loose) => value !== undefined && check(value, loose),
        inner.accepts | KIND.undefined,
        inner.inexact | KIND.undefined,
      );
    }
    default:
      // pipe, transform, default, prefault, catch, lazy, intersection, readonly, ...: zod always.
      return type;
  }
}

/** Types whose checks `leaf` can run; a check on anything else (a refined object) means zod always. */
const LEAVES = new Set(['string', 'number', 'boolean', 'enum', 'literal', 'date']);

function primitive(node: Node, def: Def, kind: number, plain: Check): Compiled {
  const checked = (def.checks?.length ?? 0) > 0 || isFormat(node);
  // Coercion accepts anything, and a rewriting check (`z.trim()`) its kind, with a change where `leaf` says no.
  if (def.coerce) return made(leaf(node), KIND.all, KIND.all);
  const rewriting = (def.checks as Node[] | undefined)?.some(rewrites) ? kind : 0;
  return checked ? made(leaf(node), kind, rewriting) : made(plain, kind);
}

function rewrites(check: Node): boolean {
  return (check._zod.def as Def).check === 'overwrite';
}

/**
 * Primitives with checks (`z.int()`, a regex, an email format): zod's own run, which for a primitive
 * allocates one small payload. A check that rewrites the value (`z.trim()`) answers no, so zod parses.
 */
function leaf(node: Node): Check {
  return (value) => {
    const payload = node._zod.run({ value, issues: [] }, PARSE_CONTEXT);
    return !(payload instanceof Promise) && payload.issues.length === 0 && payload.value === value;
  };
}

function object(def: Def): Compiled | string {
  const plan = objectPlan(def, compile);
  if (typeof plan === 'string') return plan;
  const { keys, absent, extra } = plan;
  // Parallel arrays and an index loop: this runs for every object of every response item.
  const checks = plan.fields.map((field) => field.check);
  const count = keys.length;
  const known = new Set(keys);
  const extraCheck = typeof extra === 'object' ? extra.check : undefined;
  return made(
    (value, loose) => {
      if (!isPlainObject(value)) return false;
      for (let i = 0; i < count; i++) {
        const key = keys[i]!;
        const field = value[key];
        if (field === undefined && !(key in value)) {
          if (absent[i] === 'ok' || (absent[i] === 'probe' && checks[i]!(undefined, loose))) continue;
          return false;
        }
        if (!checks[i]!(field, loose)) return false;
      }
      if (extra === 'keep' || (extra === 'strict' && loose)) return true;
      for (const key in value) {
        if (known.has(key)) continue;
        if (!extraCheck?.(value[key], loose)) return false;
      }
      return true;
    },
    KIND.object,
    // zod copies any object (a Date, a null-prototype one) into a plain one, which this refuses; a plain
    // one it changes only through a field, a stripped key or a catchall.
    KIND.other |
      (extra === 'strip' || (typeof extra === 'object' && extra.inexact) || plan.fields.some((f) => f.inexact)
        ? KIND.object
        : 0),
  );
}

function tuple(def: Def): Compiled | string {
  const items = (def.items as Node[]).map(compile);
  const failed = items.findIndex((item) => typeof item === 'string');
  if (failed >= 0) return `[${failed}]: ${items[failed]}`;
  // An optional item lets zod shorten or pad the tuple; such tuples go to zod.
  if ((def.items as Node[]).some((item) => item._zod.optin !== undefined)) return 'tuple with optional items';
  const rest = def.rest ? compile(def.rest) : undefined;
  if (typeof rest === 'string') return `[...]: ${rest}`;
  const checks = (items as Compiled[]).map((item) => item.check);
  const restCheck = rest?.check;
  const count = checks.length;
  const inexact = (items as Compiled[]).some((item) => item.inexact) || rest?.inexact ? KIND.array : 0;
  return made(
    (value, loose) => {
      if (!Array.isArray(value) || value.length < count || (!restCheck && value.length > count)) return false;
      for (let i = 0; i < count; i++) if (!checks[i]!(value[i], loose)) return false;
      for (let i = count; i < value.length; i++) if (!restCheck!(value[i], loose)) return false;
      return true;
    },
    KIND.array,
    inexact,
  );
}

function union(def: Def): Compiled | string {
  // `z.xor`: exactly one option may accept, which "the first that accepts" cannot tell.
  if (def.inclusive === false) return 'exclusive union (xor)';
  const options = def.options as Node[];
  // `openEnum` (known values or any string) is "a string": no need to try the enum first.
  if (options.some(isPlainString) && options.every(onlyStrings))
    return made((value) => typeof value === 'string', KIND.string);
  const compiled = options.map(compile);
  const failed = compiled.findIndex((option) => typeof option === 'string');
  if (failed >= 0) return `(option ${failed}): ${compiled[failed]}`;
  const all = compiled as Compiled[];
  for (let i = 0; i < all.length; i++)
    for (let j = i + 1; j < all.length; j++)
      if (all[i]!.inexact & all[j]!.accepts)
        return `union: option ${i} may accept with a change what option ${j} accepts as it is`;
  const checks = all.map((option) => option.check);
  // Options are checked as for responses: zod reports unknown keys inside a union as a failed union,
  // which the `allowUnknownFields` opt-out does not forgive.
  let accepts = 0;
  let inexact = 0;
  for (const option of all) {
    accepts |= option.accepts;
    inexact |= option.inexact;
  }
  return made(
    (value) => {
      for (const check of checks) if (check(value, false)) return true;
      return false;
    },
    accepts,
    inexact,
  );
}

function isPlainString(node: Node): boolean {
  const def = node._zod.def as Def;
  return def.type === 'string' && !def.checks?.length && !isFormat(node) && !def.coerce;
}

/** Accepts nothing but strings, unchanged: with a plain string among the options, exactly all strings. */
function onlyStrings(node: Node): boolean {
  const def = node._zod.def as Def;
  if (def.type === 'string') return !def.coerce && !(def.checks as Node[] | undefined)?.some(rewrites);
  if (def.type === 'enum' || def.type === 'literal')
    return !def.checks?.length && [...(node._zod.values ?? [undefined])].every((v) => typeof v === 'string');
  return false;
}

function record(def: Def): Compiled | string {
  const key = def.keyType._zod.def as Def;
  if (key.type !== 'string' || key.checks?.length || key.coerce || isFormat(def.keyType))
    return 'record with keys other than plain strings';
  const inner = compile(def.valueType);
  if (typeof inner === 'string') return `{}: ${inner}`;
  const check = inner.check;
  return made(
    (value, loose) => {
      // zod reads symbol keys too (and refuses them as not strings).
      if (!isPlainObject(value) || Object.getOwnPropertySymbols(value).length > 0) return false;
      for (const k of Object.keys(value)) if (!check(value[k], loose)) return false;
      return true;
    },
    KIND.object,
    KIND.other | (inner.inexact ? KIND.object : 0),
  );
}
