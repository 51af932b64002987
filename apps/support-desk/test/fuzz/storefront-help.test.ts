/**
 * The desk's storefront surfaces, fuzzed with fast-check. Over HTTP: any body sent to
 * `POST /api/storefront/help` (any JSON, any bytes, valid requests among them) is a 201 with six digits
 * exactly when the request is valid (or a 429 once the minute's codes are given out), else a 400 or 413,
 * and any body or call id sent to `POST /api/calls/:id/storefront` is a 4xx naming why; the desk answers
 * after each. In-process: the
 * support codes are six digits, unique among those held, never more than the bound, and only an issued,
 * live, unused code finds its request; REST decimals become minor units exactly as integer arithmetic does.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { HelpCodes } from '../../src/server/storefront/help-codes.js';
import { helpRequestSchema } from '../../src/server/storefront/input.js';
import { toMinor } from '../../src/server/storefront/order-rest.js';
import type { CallView, StorefrontHelpRequest } from '../../src/shared/api.js';
import { type Desk, startDesk } from '../helpers/desk.js';

let desk: Desk;
let callId: string;
/** The codes the help route gave out: the link fuzz must not type one in by chance. */
const issuedCodes = new Set<string>();
beforeAll(async () => {
  desk = await startDesk({ staticDir: undefined });
  const res = await fetch(`${desk.server.url}/api/live-calls`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'fuzz' }),
  });
  callId = ((await res.json()) as { call: CallView }).call.id;
});
afterAll(() => desk?.close());

const token = fc.oneof(
  fc.stringMatching(/^[\w.~+/=-]{1,80}$/),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', 'a b', 'eyJ0.eyJ1.c2ln', '\0', '😀', 'x'.repeat(2049)),
);
const order = fc.oneof(
  fc.constant(null),
  fc.record(
    {
      id: fc.oneof(fc.integer(), fc.double(), fc.string()),
      key: fc.oneof(fc.stringMatching(/^wc_order_\w{1,13}$/), fc.string({ maxLength: 20 })),
      billing_email: fc.oneof(fc.emailAddress(), fc.string({ maxLength: 20 })),
    },
    { requiredKeys: [] },
  ),
);
const helpBody = fc.oneof(
  fc.record({ cart_token: token, order }, { requiredKeys: [] }).map((b) => JSON.stringify(b)),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.constantFrom('', '{', 'null', '[]', `{"cart_token":"${'a'.repeat(5000)}"}`),
);

async function post(path: string, body: string): Promise<{ status: number; json: any }> {
  const res = await fetch(`${desk.server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

describe('the storefront routes, fuzzed over HTTP', () => {
  for (const run of fuzzRuns(60)) {
    it(`POST /api/storefront/help gives a code exactly for a valid request (${run.label})`, async () => {
      let inputs = 0;
      await fc.assert(
        fc.asyncProperty(helpBody, async (body) => {
          inputs++;
          const { status, json } = await post('/api/storefront/help', body);
          let valid = false;
          try {
            valid = helpRequestSchema.safeParse(JSON.parse(body)).success;
          } catch {}
          if (Buffer.byteLength(body) > 4096) expect(status).toBe(413);
          else if (valid && status === 429) {
            // The minute's codes are given out (guesses.ts): a valid request waits, it is not refused.
            expect(json.error.code).toBe('too_many_help_requests');
          } else if (valid) {
            expect(status).toBe(201);
            expect(json.code).toMatch(/^\d{6}$/);
            issuedCodes.add(json.code);
          } else {
            expect(status).toBe(400);
            expect(json.error.code).toMatch(/^invalid_(input|json)$/);
          }
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('POST /api/storefront/help', run, inputs);
    });

    it(`POST /api/calls/:id/storefront answers any code and call id with a 4xx (${run.label})`, async () => {
      let inputs = 0;
      const id = fc.oneof(fc.constant(callId), fc.uuid(), fc.string({ maxLength: 40 }));
      const body = fc.oneof(
        fc.record({
          code: fc.oneof(
            fc.stringMatching(/^\d{6}$/).filter((c) => !issuedCodes.has(c)),
            fc.string({ maxLength: 12 }).filter((c) => !issuedCodes.has(c.replace(/[\s-]/g, ''))),
            fc.integer(),
          ),
        }),
        fc.jsonValue({ maxDepth: 2 }),
      );
      await fc.assert(
        fc.asyncProperty(id, body, async (target, payload) => {
          inputs++;
          const res = await fetch(`${desk.server.url}/api/calls/${encodeURIComponent(target)}/storefront`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify(payload),
          });
          const json = (await res.json()) as { error: { code: string } };
          // Never linked: no code was issued for it (the HelpCodes property below covers issued ones).
          expect([400, 404, 409, 410, 429]).toContain(res.status);
          expect(json.error.code).toMatch(/^(invalid_input|not_found|unknown_code|too_many_codes)$/);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('POST /api/calls/:id/storefront', run, inputs);
      expect((await fetch(`${desk.server.url}/api/calls`)).status).toBe(200);
    });
  }
});

describe('support codes and REST amounts, fuzzed', () => {
  for (const run of fuzzRuns(200)) {
    it(`codes are six unique digits within the bound (${run.label})`, () => {
      let inputs = 0;
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 20 }),
          fc.array(fc.oneof(fc.constant('issue'), fc.constant('use'), fc.nat({ max: 3 * 3600_000 })), {
            maxLength: 60,
          }),
          (max, steps) => {
            inputs++;
            let now = 0;
            const codes = new HelpCodes({ maxCodes: max, now: () => now });
            const issued: { code: string; at: number; request: StorefrontHelpRequest }[] = [];
            const used = new Set<string>();
            for (const step of steps) {
              if (step === 'issue') {
                const request = { cart_token: `t${issued.length}`, order: null };
                const { code } = codes.issue(request);
                expect(code).toMatch(/^\d{6}$/);
                issued.push({ code, at: now, request });
              } else if (step === 'use') {
                const last = issued.at(-1);
                if (last && codes.claim(last.code) === last.request) {
                  codes.forget(last.code);
                  used.add(last.code);
                }
              } else now += step;
              expect(codes.size).toBeLessThanOrEqual(max);
            }
            // The newest `max` codes are held, each unlike the others.
            const held = issued.slice(-max);
            expect(new Set(held.map((h) => h.code)).size).toBe(held.length);
            for (const h of held) {
              const found = codes.claim(h.code);
              if (used.has(h.code)) expect(['used', 'unknown']).toContain(found);
              else if (now >= h.at + 2 * 3600_000) expect(['expired', 'unknown']).toContain(found);
              else expect(found).toEqual(h.request);
            }
          },
        ),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('HelpCodes', run, inputs);
    });

    it(`toMinor reads REST decimals as whole minor units (${run.label})`, () => {
      let inputs = 0;
      fc.assert(
        fc.property(
          fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
          fc.integer({ min: 0, max: 4 }),
          (minor, unit) => {
            inputs++;
            const negative = minor < 0n;
            const digits = (negative ? -minor : minor).toString().padStart(unit + 1, '0');
            const decimal = unit === 0 ? digits : `${digits.slice(0, -unit)}.${digits.slice(-unit)}`;
            expect(toMinor(`${negative ? '-' : ''}${decimal}`, unit)).toBe(minor.toString());
          },
        ),
        { seed: run.seed, numRuns: run.numRuns },
      );
      fc.assert(
        fc.property(fc.string({ maxLength: 30 }), fc.integer({ min: 0, max: 10 }), (text, unit) => {
          inputs++;
          expect(toMinor(text, unit)).toMatch(/^-?\d+$/);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('toMinor', run, inputs);
    });
  }
});
