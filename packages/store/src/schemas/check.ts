import type * as z from 'zod/mini';

/**
 * A schema turned into a plain predicate over a value, built once per schema.
 *
 * Why: zod/mini parses by interpretation and copies every object it walks. A batch of 100 orders spent
 * more time in zod than in JSON.parse (about 25 µs per order against 12 µs), enough to make `@x/store`'s
 * batch update 1.6x slower than the same requests sent by hand. The predicate answers "would zod accept
 * this, and return it unchanged?" without allocating; when it says yes the value is used as it is,
 * when it says no the caller runs zod, which reports the issues (or applies a transform). So zod stays
 * the one definition and the one source of error messages; this is only a faster "yes".
 *
 * A predicate exists only for schemas made of what it understands (objects, arrays, unions, optional,
 * nullable, records, enums, literals, never, primitives and their checks). Anything that could change a value
 * (defaults, pipes, transforms) makes `compileCheck` return undefined: such schemas always go to zod.
 */
export type Check = (value: unknown, looseInputs: boolean) => boolean;

type Node = z.core.$ZodType;
type Def = z.core.$ZodTypeDef & Record<string, any>;

const cache = new WeakMap<object, Check | null>();
const PARSE_CONTEXT = { async: false } as const;

/** Whether `new Function` works here; learnt once, so a CSP that forbids it reports one violation. */
let canGenerate: boolean | undefined;

/**
 * `looseInputs`: strict objects accept unknown keys (the `allowUnknownFields` opt-out). `how` is for
 * tests, which compare both forms with zod.
 */
export function compileCheck(schema: z.ZodMiniType, how?: 'generated' | 'closures'): Check | undefined {
  const node = schema as unknown as Node;
  if (how) return how === 'closures' ? build(node) : build(node) && generate(node);
  let check = cache.get(schema);
  if (check === undefined) {
    const closures = build(node);
    check = (closures && canGenerate !== false && generate(node)) || closures || null;
    cache.set(schema, check);
  }
  return check ?? undefined;
}

/**
 * The same predicate as straight-line code, where the runtime allows `new Function` (Node, Deno, Bun,
 * browsers without a CSP that forbids it; not Cloudflare Workers): about three times faster than the
 * tree of closures, which remains the fallback. Only called for schemas `build` understood.
 */
function generate(root: Node): Check | undefined {
  const refs: unknown[] = [];
  let vars = 0;
  const ref = (value: unknown) => `r[${refs.push(value) - 1}]`;
  const emit = (node: Node, v: string): string => {
    const def = node._zod.def as Def;
    const checked = def.checks !== undefined && def.checks.length > 0;
    const fail = 'return false;';
    switch (def.type) {
      case 'object': {
        const shape = def.shape as Record<string, Node>;
        const keys = Object.keys(shape);
        let code = `if (typeof ${v} !== 'object' || ${v} === null || Array.isArray(${v})) ${fail}\n`;
        for (const key of keys) {
          const field = `v${++vars}`;
          const name = JSON.stringify(key);
          const absent = shape[key]!._zod.optin !== undefined ? '' : fail;
          code += `{ const ${field} = ${v}[${name}];\nif (${field} === undefined && !(${name} in ${v})) { ${absent} } else {\n${emit(shape[key]!, field)}} }\n`;
        }
        if ((def.catchall?._zod.def as Def | undefined)?.type === 'never')
          code += `if (!loose) for (const k in ${v}) if (!${ref(new Set(keys))}.has(k)) ${fail}\n`;
        return code;
      }
      case 'array': {
        const item = `v${++vars}`;
        const index = `i${vars}`;
        return `if (!Array.isArray(${v})) ${fail}\nfor (let ${index} = 0; ${index} < ${v}.length; ${index}++) { const ${item} = ${v}[${index}];\n${emit(def.element, item)}}\n`;
      }
      case 'optional':
        return `if (${v} !== undefined) {\n${emit(def.innerType, v)}}\n`;
      case 'nullable':
        return `if (${v} !== null) {\n${emit(def.innerType, v)}}\n`;
      case 'record': {
        const key = `k${++vars}`;
        const item = `v${vars}`;
        return `if (typeof ${v} !== 'object' || ${v} === null || Array.isArray(${v})) ${fail}\nfor (const ${key} of Object.keys(${v})) { const ${item} = ${v}[${key}];\n${emit(def.valueType, item)}}\n`;
      }
      case 'unknown':
      case 'any':
        return '';
      case 'string':
        return checked || isCheck(node)
          ? `if (!${ref(leaf(node))}(${v})) ${fail}\n`
          : `if (typeof ${v} !== 'string') ${fail}\n`;
      case 'number':
        return checked || isCheck(node)
          ? `if (!${ref(leaf(node))}(${v})) ${fail}\n`
          : `if (!Number.isFinite(${v})) ${fail}\n`;
      case 'boolean':
        return checked
          ? `if (!${ref(leaf(node))}(${v})) ${fail}\n`
          : `if (typeof ${v} !== 'boolean') ${fail}\n`;
      default:
        // Unions, enums, literals, null, dates: the closure `build` made for them.
        return `if (!${ref(build(node))}(${v}, loose)) ${fail}\n`;
    }
  };
  const body = `return function check(v0, loose) {\n${emit(root, 'v0')}return true;\n};`;
  try {
    const check = new Function('r', body)(refs) as Check;
    canGenerate = true;
    return check;
  } catch {
    canGenerate = false;
    return undefined;
  }
}

/** undefined: this node (or one inside it) is not understood; the whole schema then goes to zod. */
function build(node: Node): Check | undefined {
  const def = node._zod.def as Def;
  const checked = def.checks !== undefined && def.checks.length > 0;
  switch (def.type) {
    case 'object':
      return checked ? undefined : object(def);
    case 'array': {
      const element = build(def.element);
      if (!element || checked) return undefined;
      return (value, loose) => {
        if (!Array.isArray(value)) return false;
        for (let i = 0; i < value.length; i++) if (!element(value[i], loose)) return false;
        return true;
      };
    }
    case 'optional': {
      const inner = build(def.innerType);
      return inner && ((value, loose) => value === undefined || inner(value, loose));
    }
    case 'nullable': {
      const inner = build(def.innerType);
      return inner && ((value, loose) => value === null || inner(value, loose));
    }
    case 'union': {
      // `openEnum` (known values or any string) is "a string": no need to try the enum first.
      if (
        !checked &&
        (def.options as Node[]).some(isPlainString) &&
        (def.options as Node[]).every(onlyStrings)
      )
        return (value) => typeof value === 'string';
      const options = (def.options as Node[]).map(build);
      if (checked || options.some((option) => !option)) return undefined;
      const all = options as Check[];
      return (value, loose) => {
        for (const option of all) if (option(value, loose)) return true;
        return false;
      };
    }
    case 'record': {
      const key = def.keyType._zod.def as Def;
      const inner = build(def.valueType);
      if (checked || !inner || key.type !== 'string' || key.checks?.length) return undefined;
      return (value, loose) => {
        if (!isObject(value)) return false;
        for (const k of Object.keys(value as object))
          if (!inner((value as Record<string, unknown>)[k], loose)) return false;
        return true;
      };
    }
    case 'enum': {
      const values = new Set(Object.values(def.entries as Record<string, unknown>));
      return checked ? leaf(node) : (value) => values.has(value);
    }
    case 'literal': {
      const values = new Set(def.values as unknown[]);
      return checked ? leaf(node) : (value) => values.has(value);
    }
    case 'unknown':
    case 'any':
      return checked ? undefined : () => true;
    case 'string':
      return checked || isCheck(node) ? leaf(node) : (value) => typeof value === 'string';
    case 'number':
      // zod's number refuses NaN and the infinities; JSON cannot carry them anyway.
      return checked || isCheck(node) ? leaf(node) : (value) => Number.isFinite(value);
    case 'boolean':
      return checked ? leaf(node) : (value) => typeof value === 'boolean';
    case 'null':
      return (value) => value === null;
    case 'never':
      // A field that may only be absent (`z.optional(z.never())`): present, zod refuses it with its message.
      return () => false;
    case 'date':
      return leaf(node);
    default:
      return undefined;
  }
}

function isPlainString(node: Node): boolean {
  const def = node._zod.def as Def;
  return def.type === 'string' && !def.checks?.length && !isCheck(node);
}

/** Accepts nothing but strings: a union with a plain string among its options accepts exactly all strings. */
function onlyStrings(node: Node): boolean {
  const def = node._zod.def as Def;
  if (def.type === 'string') return true;
  if (def.type === 'enum') return Object.values(def.entries).every((v) => typeof v === 'string');
  if (def.type === 'literal') return (def.values as unknown[]).every((v) => typeof v === 'string');
  return false;
}

/** A string format (`z.email()`, `z.url()`) is a schema and its own check. */
function isCheck(node: Node): boolean {
  return node._zod.traits.has('$ZodCheck');
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

function object(def: Def): Check | undefined {
  const shape = def.shape as Record<string, Node>;
  const keys = Object.keys(shape);
  // Parallel arrays and an index loop: this runs for every object of every response item.
  const checks: Check[] = [];
  const optional: boolean[] = [];
  for (const key of keys) {
    const check = build(shape[key]!);
    if (!check) return undefined;
    checks.push(check);
    optional.push(shape[key]!._zod.optin !== undefined);
  }
  const catchallType = (def.catchall?._zod.def as Def | undefined)?.type;
  // Loose objects (responses) keep unknown keys as they are; strict ones (inputs) refuse them, unless
  // the caller opted out. A stripping object would drop them, which "use the value as it is" cannot do.
  const keep = catchallType === 'unknown' || catchallType === 'any';
  if (!keep && catchallType !== 'never') return undefined;
  const known = new Set(keys);
  const count = keys.length;
  return (value, loose) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const record = value as Record<string, unknown>;
    for (let i = 0; i < count; i++) {
      const key = keys[i]!;
      const field = record[key];
      if (field === undefined && !(key in record)) {
        if (optional[i]) continue;
        return false;
      }
      if (!checks[i]!(field, loose)) return false;
    }
    if (!keep && !loose) for (const key in record) if (!known.has(key)) return false;
    return true;
  };
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
