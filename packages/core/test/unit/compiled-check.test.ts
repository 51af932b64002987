import { isDeepStrictEqual } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { compileCheck, uncompiledReason } from '../../src/compiled-check.js';
import { ResponseValidationError } from '../../src/errors.js';
import type { Logger } from '../../src/log.js';
import { openEnum, parseResponse, type ResponseContext } from '../../src/validation.js';

/**
 * The compiled predicate says yes exactly when zod accepts a value unchanged, in both forms (generated
 * code, closures); it exists only for a zod release it was tested with; it survives a runtime that
 * forbids `new Function`; and parseResponse takes its yes without running zod, and zod for the rest.
 * (The property over random schemas is test/fuzz/compiled-check.test.ts.)
 */

const Word = z.looseObject({ text: z.string(), start: z.int(), end: z.int(), confidence: z.number() });
const Transcript = z.looseObject({
  id: z.string(),
  status: openEnum(['queued', 'processing', 'completed', 'error']),
  text: z.optional(z.nullable(z.string())),
  words: z.optional(z.nullable(z.array(Word))),
  audio_duration: z.optional(z.nullable(z.number())),
  speech_model: z.optional(z.nullable(z.enum(['best', 'nano']))),
  language_confidence: z.optional(z.nullable(z.number().check(z.gte(0), z.lte(1)))),
  custom_spelling: z.optional(
    z.nullable(z.array(z.looseObject({ from: z.array(z.string()), to: z.string() }))),
  ),
  webhook_auth: z.boolean(),
  meta: z.optional(z.record(z.string(), z.unknown())),
});

const cases: Array<[string, z.ZodMiniType, unknown[]]> = [
  [
    'loose object (a response)',
    Transcript,
    [
      { id: 't', status: 'completed', webhook_auth: false },
      {
        id: 't',
        status: 'new-status',
        webhook_auth: true,
        words: [{ text: 'a', start: 0, end: 1, confidence: 1 }],
      },
      { id: 't', status: 'completed', webhook_auth: false, unknown: { deep: [1] } },
      { id: 't', status: 'completed', webhook_auth: false, language_confidence: 2 },
      {
        id: 't',
        status: 'completed',
        webhook_auth: false,
        words: [{ text: 'a', start: 0.5, end: 1, confidence: 1 }],
      },
      { id: 't', status: 1, webhook_auth: false },
      { id: 't', webhook_auth: false },
      { id: 't', status: 'completed', webhook_auth: false, meta: { a: 1, b: null } },
      { id: 't', status: 'completed', webhook_auth: false, meta: [] },
      JSON.parse('{"id":"t","status":"completed","webhook_auth":false,"__proto__":{"x":1}}'),
      Object.assign(Object.create(null), { id: 't', status: 'completed', webhook_auth: false }),
      new Date(0),
      null,
      [],
    ],
  ],
  [
    'strict object (an input)',
    z.strictObject({ name: z.string(), price: z.optional(z.string()) }),
    [
      { name: 'x' },
      { name: 'x', price: '1.00' },
      { name: 'x', prise: '1.00' },
      { name: 'x', price: undefined },
    ],
  ],
  [
    'stripping object: unknown keys would be dropped, so only values without them',
    z.object({ name: z.string() }),
    [{ name: 'x' }, { name: 'x', extra: 1 }],
  ],
  [
    'catchall',
    z.catchall(z.object({ id: z.int() }), z.string()),
    [{ id: 1 }, { id: 1, label: 'x' }, { id: 1, label: 2 }],
  ],
  [
    'exact optional: absent, not undefined',
    z.looseObject({ a: z.exactOptional(z.string()) }),
    [{}, { a: 'x' }, { a: undefined }],
  ],
  [
    'tuple (a report), with and without rest',
    z.tuple([z.looseObject({ total: z.string() })], z.number()),
    [[{ total: '1' }], [{ total: '1' }, 2, 3], [{ total: '1' }, 'x'], []],
  ],
  [
    'union of plain objects, first match wins',
    z.union([
      z.looseObject({ kind: z.literal('a'), n: z.number() }),
      z.looseObject({ kind: z.literal('b') }),
    ]),
    [{ kind: 'a', n: 1 }, { kind: 'b' }, { kind: 'a' }, { kind: 'c' }],
  ],
  [
    'array length checks',
    z.looseObject({ languages: z.array(z.string()).check(z.minLength(1), z.maxLength(2)) }),
    [{ languages: [] }, { languages: ['es'] }, { languages: ['es', 'de', 'fr'] }],
  ],
  [
    'defaults: present values only (an absent one is filled in)',
    z._default(
      z.looseObject({
        channels: z.optional(z.record(z.string(), z.looseObject({}))),
        n: z.optional(z._default(z.number(), 0)),
        m: z._default(z.number(), 0),
      }),
      { m: 0 },
    ),
    [{ m: 1 }, { channels: { a: {} }, m: 1, n: 2 }, {}, { m: 1, n: undefined }, undefined, null],
  ],
  [
    'rewriting checks (trim) and formats',
    z.looseObject({ name: z.string().check(z.trim()), email: z.email() }),
    [
      { name: 'x', email: 'a@b.co' },
      { name: ' x ', email: 'a@b.co' },
      { name: 'x', email: 'not an email' },
    ],
  ],
];

describe('compiled checks agree with zod', () => {
  for (const [name, schema, values] of cases) {
    it(name, () => {
      const forms = {
        generated: compileCheck(schema, 'generated'),
        closures: compileCheck(schema, 'closures'),
      };
      for (const [how, check] of Object.entries(forms)) {
        expect(check, how).toBeTypeOf('function');
        for (const value of values) {
          const parsed = schema.safeParse(value);
          // Deep-equal, prototypes included; key order may differ (zod writes the shape's order).
          const unchanged = parsed.success && isDeepStrictEqual(parsed.data, value);
          expect(check!(value), `${how}: ${JSON.stringify(value)}`).toBe(unchanged);
        }
      }
    });
  }

  it('refuses what zod would change or cannot promise: transforms, refinements, an inexact union', () => {
    expect(uncompiledReason(z.looseObject({ n: z.pipe(z.string(), z.transform(Number)) }))).toBe('n: pipe');
    expect(
      uncompiledReason(z.array(z.looseObject({ a: z._default(z.pipe(z.string(), z.transform(Number)), 1) }))),
    ).toBe('[]: a: default: pipe');
    expect(uncompiledReason(z.array(z.string()).check(z.refine(() => true)))).toBe(
      'array with checks (a refinement)',
    );
    expect(uncompiledReason(z.looseObject({}).check(z.refine(() => true)))).toBe(
      'object with checks (a refinement)',
    );
    expect(uncompiledReason(z.union([z.object({ a: z.string() }), z.looseObject({ a: z.string() })]))).toBe(
      'union: option 0 may accept with a change what option 1 accepts as it is',
    );
    // zod would copy a nested Date into a plain object under the first option, where the second takes it as is.
    expect(uncompiledReason(z.union([z.looseObject({ a: z.looseObject({}) }), z.looseObject({})]))).toBe(
      'union: option 0 may accept with a change what option 1 accepts as it is',
    );
    expect(
      uncompiledReason(z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())])),
    ).toBeUndefined();
    expect(uncompiledReason(z.xor([z.string(), z.number()]))).toBe('exclusive union (xor)');
    expect(compileCheck(z.looseObject({ n: z.pipe(z.string(), z.transform(Number)) }))).toBeUndefined();
  });

  it('refuses a recursive schema instead of looping', () => {
    const Tree = z.looseObject({
      name: z.string(),
      get children() {
        return z.array(Tree);
      },
    });
    expect(compileCheck(Tree)).toBeUndefined();
    expect(Tree.safeParse({ name: 'a', children: [{ name: 'b', children: [] }] }).success).toBe(true);
  });
});

describe('zod version guard', () => {
  it('compiles for the installed zod (a zod upgrade fails this: run the fuzz suite, then add its minor)', () => {
    const version = (z.string() as unknown as { _zod: { version: unknown } })._zod.version;
    expect(version).toMatchObject({ major: 4, minor: 6 });
    expect(compileCheck(z.looseObject({ a: z.string() }))).toBeTypeOf('function');
  });

  it('gives no predicate for a schema built by a zod release it was not tested with', () => {
    const inner = z.string();
    (inner as unknown as { _zod: { version: unknown } })._zod.version = { major: 4, minor: 99, patch: 0 };
    const schema = z.looseObject({ a: inner });
    expect(compileCheck(schema)).toBeUndefined();
    expect(uncompiledReason(schema)).toBe('a: zod 4.99.0 (tested: 4.6)');
    const major = z.number();
    (major as unknown as { _zod: { version: unknown } })._zod.version = { major: 5, minor: 0, patch: 0 };
    expect(compileCheck(major)).toBeUndefined();
  });
});

describe('runtimes without new Function (a CSP, Cloudflare Workers)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
    z.config({ jitless: false });
  });

  it('falls back to the closures when new Function throws, and they still agree with zod', async () => {
    vi.resetModules();
    const fresh = await import('../../src/compiled-check.js');
    let attempts = 0;
    vi.stubGlobal('Function', function refused() {
      attempts++;
      throw new EvalError('Code generation from strings disallowed for this context');
    });
    const check = fresh.compileCheck(Transcript);
    expect(check).toBeTypeOf('function');
    expect(check!.name).not.toBe('check');
    expect(check!({ id: 't', status: 'completed', webhook_auth: false })).toBe(true);
    expect(check!({ id: 't', status: 'completed' })).toBe(false);
    // Learnt once: a second schema does not try again (a CSP would report each attempt).
    fresh.compileCheck(z.looseObject({ b: z.string() }));
    expect(attempts).toBe(1);
  });

  it('a list schema made per call reuses its item predicate: no code is generated per call', async () => {
    vi.resetModules();
    const fresh = await import('../../src/compiled-check.js');
    let generated = 0;
    vi.stubGlobal(
      'Function',
      new Proxy(Function, {
        construct(target, args) {
          generated++;
          return Reflect.construct(target, args);
        },
      }),
    );
    const words = [{ text: 'a', start: 0, end: 1, confidence: 1 }];
    expect(fresh.compileCheck(z.array(Word))!(words)).toBe(true);
    const first = generated;
    expect(first).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++)
      expect(fresh.compileCheck(z.array(Word))!([...words, { text: 1 }])).toBe(false);
    expect(generated).toBe(first);
  });

  it("honours zod's own jitless setting", async () => {
    vi.resetModules();
    const fresh = await import('../../src/compiled-check.js');
    z.config({ jitless: true });
    expect(fresh.compileCheck(z.looseObject({ c: z.string() }))!.name).not.toBe('check');
    z.config({ jitless: false });
    expect(fresh.compileCheck(z.looseObject({ c: z.string() }))!.name).toBe('check');
  });
});

describe('parseResponse', () => {
  const warnings: string[] = [];
  const logger = { warn: (m: string) => warnings.push(m) } as unknown as Logger;
  const ctx = (mode: ResponseContext['mode']): ResponseContext => ({
    mode,
    status: 200,
    requestId: 'req_1',
    what: 'transcripts.get',
    logger,
  });

  it('returns a valid body itself, not a copy (zod never ran)', () => {
    const body = { id: 't', status: 'completed', webhook_auth: false, extra: [1] };
    const spy = vi.spyOn(Transcript, 'safeParse');
    expect(parseResponse(Transcript, body, ctx('strict'))).toBe(body);
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it("an invalid body gets zod's issues, as before", () => {
    const body = { id: 't', status: 'completed', webhook_auth: 'yes' };
    expect(() => parseResponse(Transcript, body, ctx('strict'))).toThrow(ResponseValidationError);
    try {
      parseResponse(Transcript, body, ctx('strict'));
    } catch (error) {
      expect((error as ResponseValidationError).issues).toEqual([
        { path: 'webhook_auth', message: 'expected boolean' },
      ]);
    }
    warnings.length = 0;
    expect(parseResponse(Transcript, body, ctx('warn'))).toBe(body);
    expect(warnings).toHaveLength(1);
  });

  it("a schema that transforms still gets zod's result", () => {
    const schema = z.looseObject({ n: z.pipe(z.string(), z.transform(Number)) });
    expect(parseResponse(schema, { n: '42' }, ctx('strict'))).toEqual({ n: 42 });
  });
});
