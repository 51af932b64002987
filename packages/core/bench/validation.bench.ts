/**
 * What checking a response body costs: zod/mini's `safeParse` against `compileCheck`'s predicate (the
 * generated code, and the closures a runtime without `new Function` gets), on the SDKs' real response
 * schemas: the transcription transcript (the biggest schema) and a store batch answer of 100 orders
 * (the batch's `update` items, each checked as an order; its row is per batch). Bodies are built from the schemas themselves
 * (every field filled, arrays of a few items; the transcript with 400 words) and round-tripped through
 * JSON, so they are what the client parses. CPU time of this process, median of the rounds.
 *
 *   pnpm --filter @x/core exec tsx bench/validation.bench.ts
 *   BENCH_ROUNDS=9 BENCH_ROUND_MS=500 pnpm --filter @x/core exec tsx bench/validation.bench.ts
 *
 * Writes bench/results-validation.json (git-ignored). Times are measured, not asserted.
 */
import { loadavg } from 'node:os';
import type * as z from 'zod/mini';
import { intEnv, median, writeResults } from '../../../bench.tools.js';
import { order } from '../../store/src/schemas/orders.js';
import { transcript } from '../../transcription/src/schemas/transcripts.js';
import { compileCheck } from '../src/compiled-check.js';

const ROUNDS = intEnv('BENCH_ROUNDS', 5);
const WARMUP_MS = intEnv('BENCH_WARMUP_MS', 500);
const ROUND_MS = intEnv('BENCH_ROUND_MS', 200);
const WORDS = intEnv('BENCH_WORDS', 400);

type Node = z.core.$ZodType;
type Def = Record<string, any>;

/** A value the schema accepts, every optional field present; arrays get `items` copies. */
function sampleOf(schema: unknown, items = 2): unknown {
  const node = schema as Node;
  const def = node._zod.def as Def;
  switch (def.type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(def.shape as Record<string, Node>).map(([k, v]) => [k, sampleOf(v)]),
      );
    case 'array': {
      const min = (def.checks as Node[] | undefined)?.length ? 1 : 0;
      return Array.from({ length: Math.max(items, min) }, () => sampleOf(def.element));
    }
    case 'optional':
    case 'nullable':
    case 'default':
      return sampleOf(def.innerType, items);
    case 'union':
      return sampleOf(def.options[0], items);
    case 'record':
      return { a: sampleOf(def.valueType), b: sampleOf(def.valueType) };
    case 'tuple':
      return (def.items as Node[]).map((item) => sampleOf(item));
    case 'enum':
    case 'literal':
      return [...(node._zod.values as Set<unknown>)][0];
    case 'string':
      return (node as unknown as z.ZodMiniType).safeParse('2026-11-27T02:00:00').success
        ? '2026-11-27T02:00:00'
        : 'https://example.com/a@example.com';
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return 'x';
  }
}

function transcriptBody(): unknown {
  const body = sampleOf(transcript) as Record<string, unknown>;
  const word = (body.words as unknown[])[0];
  body.words = Array.from({ length: WORDS }, () => word);
  return JSON.parse(JSON.stringify(body));
}

function batchBody(): { update: unknown[] } {
  const one = sampleOf(order, 3);
  return JSON.parse(JSON.stringify({ update: Array.from({ length: 100 }, () => one) }));
}

interface Row {
  case: string;
  bytes: number;
  zodUs: number;
  generatedUs: number;
  closuresUs: number;
}

/**
 * CPU µs per call of `run`, median of the rounds. Each round runs for ROUND_MS of CPU, after WARMUP_MS:
 * V8 compiles a big generated check on a background thread, which `process.cpuUsage()` counts, so a short
 * run would charge that one-off compile to every call.
 */
function cpuPerCall(run: () => void): number {
  const spend = (ms: number) => {
    const start = process.cpuUsage();
    let calls = 0;
    let used = 0;
    while (used < ms * 1000) {
      run();
      calls++;
      const now = process.cpuUsage(start);
      used = now.user + now.system;
    }
    return used / calls;
  };
  spend(WARMUP_MS);
  return median(Array.from({ length: ROUNDS }, () => spend(ROUND_MS)));
}

function measure(name: string, schema: z.ZodMiniType, bodies: unknown[]): Row {
  const generated = compileCheck(schema, 'generated');
  const closures = compileCheck(schema, 'closures');
  if (!generated || !closures) throw new Error(`${name}: no compiled check`);
  for (const body of bodies) {
    if (!schema.safeParse(body).success) throw new Error(`${name}: zod refuses the sample`);
    if (!generated(body) || !closures(body)) throw new Error(`${name}: the check refuses the sample`);
  }
  const each = (fn: (body: unknown) => unknown) => () => {
    for (const body of bodies) fn(body);
  };
  return {
    case: name,
    bytes: JSON.stringify(bodies).length,
    zodUs: cpuPerCall(each((body) => schema.safeParse(body))),
    generatedUs: cpuPerCall(each(generated)),
    closuresUs: cpuPerCall(each(closures)),
  };
}

const load = loadavg();
const batch = batchBody();
const rows = [
  measure(`transcript (${WORDS} words)`, transcript as unknown as z.ZodMiniType, [transcriptBody()]),
  measure('store batch: 100 orders, each as an order', order as unknown as z.ZodMiniType, batch.update),
];

console.log(
  `\n@x/core validation bench: CPU µs per body, median of ${ROUNDS} rounds of ${ROUND_MS} ms after ${WARMUP_MS} ms of warm-up; Node ${process.version}, load ${load.map((l) => l.toFixed(2)).join(' ')}\n`,
);
console.log(
  `${'case'.padEnd(44)}${'bytes'.padStart(9)}${'zod'.padStart(10)}${'generated'.padStart(11)}${'closures'.padStart(10)}${'zod/gen'.padStart(9)}`,
);
for (const row of rows)
  console.log(
    `${row.case.padEnd(44)}${String(row.bytes).padStart(9)}${row.zodUs.toFixed(1).padStart(10)}${row.generatedUs.toFixed(1).padStart(11)}${row.closuresUs.toFixed(1).padStart(10)}${`${(row.zodUs / row.generatedUs).toFixed(1)}x`.padStart(9)}`,
  );
console.log(
  `(results written to ${writeResults(new URL('./results-validation.json', import.meta.url), load, { rows })})`,
);
