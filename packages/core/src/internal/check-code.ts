import type * as z from 'zod/mini';
import { type Check, type Compiled, type Def, isFormat, lengthBounds, objectPlan } from './check-plans.js';

type Node = z.core.$ZodType;

/**
 * The predicate `compile` built for a schema, as straight-line code, where the runtime allows
 * `new Function` (Node, Deno, Bun, browsers without a CSP that forbids it; not Cloudflare Workers): three
 * to five times faster than the tree of closures (bench/validation.bench.ts), which remains the fallback. The semantics are the
 * closures' (compiled-check.ts), node for node; what is not written out here (unions, enums, tuples,
 * checked primitives) calls the node's closure. `reuse` names nodes that already have a predicate of
 * their own (an item schema compiled before its list wrapper), called instead of inlined.
 * undefined when `new Function` is refused.
 */
export function generateCheck(
  root: Node,
  compile: (node: Node) => Compiled | string,
  reuse: (node: Node) => Check | null | undefined,
): Check | undefined {
  try {
    return generate(root, compile, reuse);
  } catch {
    // A CSP or a Worker refused `new Function` (once: the caller stops trying).
    return undefined;
  }
}

function generate(
  root: Node,
  compile: (node: Node) => Compiled | string,
  reuse: (node: Node) => Check | null | undefined,
): Check {
  const refs: unknown[] = [];
  let vars = 0;
  const ref = (value: unknown) => `r[${refs.push(value) - 1}]`;
  const fail = 'return false;';
  const closure = (node: Node, v: string, loose = 'loose') => {
    const compiled = compile(node) as Compiled;
    return `if (!${ref(compiled.check)}(${v}, ${loose})) ${fail}\n`;
  };
  const emit = (node: Node, v: string): string => {
    const own = reuse(node);
    if (own) return `if (!${ref(own)}(${v}, loose)) ${fail}\n`;
    const def = node._zod.def as Def;
    const plain = !def.checks?.length && !def.coerce;
    switch (def.type) {
      case 'object': {
        const plan = objectPlan(def, compile);
        if (typeof plan === 'string') throw new Error(plan);
        const shape = def.shape as Record<string, Node>;
        let code = `if (typeof ${v} !== 'object' || ${v} === null || Object.getPrototypeOf(${v}) !== P || H.call(${v}, '__proto__')) ${fail}\n`;
        plan.keys.forEach((key, i) => {
          const field = `v${++vars}`;
          const name = JSON.stringify(key);
          const rule = plan.absent[i];
          const absent =
            rule === 'ok'
              ? ''
              : rule === 'probe'
                ? `if (!${ref(plan.fields[i]!.check)}(undefined, loose)) ${fail}`
                : fail;
          code += `{ const ${field} = ${v}[${name}];\nif (${field} === undefined && !(${name} in ${v})) { ${absent} } else {\n${emit(shape[key]!, field)}} }\n`;
        });
        const extra = plan.extra;
        if (extra === 'keep') return code;
        const known = ref(new Set(plan.keys));
        const key = `k${++vars}`;
        const test =
          typeof extra === 'object'
            ? `{ const v${vars} = ${v}[${key}];\n${emit(def.catchall, `v${vars}`)}}`
            : fail;
        const guard = extra === 'strict' ? 'if (!loose) ' : '';
        return `${code}${guard}for (const ${key} in ${v}) if (!${known}.has(${key})) ${test}\n`;
      }
      case 'array': {
        const item = `v${++vars}`;
        const index = `i${vars}`;
        const [min, max] = lengthBounds(def) ?? [0, Number.POSITIVE_INFINITY];
        const length =
          (min > 0 ? ` || ${v}.length < ${min}` : '') +
          (max < Number.POSITIVE_INFINITY ? ` || ${v}.length > ${max}` : '');
        // An item that is an object gets a function of its own: one function holding a whole transcript
        // grows past what V8 optimizes, and the loop over 400 words then ran slower than the closures.
        const element = def.element as Node;
        const own = (element._zod.def as Def).type === 'object' && generate(element, compile, reuse);
        const body = own ? `if (!${ref(own)}(${item}, loose)) ${fail}\n` : emit(element, item);
        return `if (!Array.isArray(${v})${length}) ${fail}\nfor (let ${index} = 0; ${index} < ${v}.length; ${index}++) { const ${item} = ${v}[${index}];\n${body}}\n`;
      }
      case 'optional':
        if (node._zod.traits.has('$ZodExactOptional') || def.innerType._zod.optin === 'defaulted')
          return emit(def.innerType, v);
        return `if (${v} !== undefined) {\n${emit(def.innerType, v)}}\n`;
      case 'nullable':
        return `if (${v} !== null) {\n${emit(def.innerType, v)}}\n`;
      case 'unknown':
      case 'any':
        return '';
      case 'string':
        return plain && !isFormat(node) ? `if (typeof ${v} !== 'string') ${fail}\n` : closure(node, v);
      case 'number':
        return plain && !isFormat(node) ? `if (!Number.isFinite(${v})) ${fail}\n` : closure(node, v);
      case 'boolean':
        return plain ? `if (typeof ${v} !== 'boolean') ${fail}\n` : closure(node, v);
      case 'null':
        return `if (${v} !== null) ${fail}\n`;
      default:
        // Unions, enums, literals, tuples, records, dates: the closure `compile` made for them.
        return closure(node, v);
    }
  };
  const body = `return function check(v0, loose) {\n${emit(root, 'v0')}return true;\n};`;
  return new Function('r', 'P', 'H', body)(refs, Object.prototype, Object.prototype.hasOwnProperty) as Check;
}
