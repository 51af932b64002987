import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { parseWebhook, ValidationError, verifyWebhook, XError } from '../../src/index.js';
import { type ScriptedServer, scriptedServer } from '../helpers/http-server.js';

/*
 * parseWebhook and verifyWebhook with random bodies and headers: directly, and inside a receiver on a real
 * socket (the shape the README shows), which must answer every delivery and stay up.
 */

const SECRET = { name: 'X-Hook-Secret', value: 'hook-fuzz-secret-81d2' };

const deep = fc
  .record({ depth: fc.integer({ min: 60, max: 20_000 }), objects: fc.boolean(), wrapped: fc.boolean() })
  .map(({ depth, objects, wrapped }) => {
    const inner = objects
      ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
      : `${'['.repeat(depth)}${']'.repeat(depth)}`;
    return wrapped ? `{"transcript_id":"t1","status":"completed","x":${inner}}` : inner;
  });

const notificationLike = fc
  .record(
    {
      transcript_id: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 2 })),
      status: fc.oneof(
        fc.constantFrom('completed', 'error', 'redacted_audio_ready'),
        fc.jsonValue({ maxDepth: 2 }),
      ),
      redacted_audio_url: fc.oneof(fc.string(), fc.integer()),
    },
    { requiredKeys: [] },
  )
  .map((v) => JSON.stringify(v));

const text = fc.oneof(
  { weight: 3, arbitrary: notificationLike },
  { weight: 2, arbitrary: fc.json({ maxDepth: 4 }) },
  { weight: 1, arbitrary: deep },
  { weight: 2, arbitrary: fc.string({ maxLength: 300 }) },
  {
    weight: 1,
    arbitrary: notificationLike.chain((t) => fc.nat({ max: t.length }).map((cut) => t.slice(0, cut))),
  },
  { weight: 1, arbitrary: fc.integer({ min: 100_000, max: 1_000_000 }).map((n) => `"${'x'.repeat(n)}"`) },
);

/** What a receiver might hand over: text, bytes (possibly not UTF-8), or an already parsed value. */
const body: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: text },
  { weight: 2, arbitrary: text.map((t) => new TextEncoder().encode(t)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }) },
);

const headerValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constant(SECRET.value),
  fc.constant(`${SECRET.value}x`),
  fc.constant(SECRET.value.slice(0, -1)),
  fc.array(fc.string({ maxLength: 20 }), { maxLength: 3 }),
  fc.jsonValue({ maxDepth: 1 }),
);
const headerName = fc.oneof(
  fc.constantFrom('x-hook-secret', 'X-HOOK-SECRET', 'X-Hook-Secret'),
  fc.string({ maxLength: 20 }),
);
const headers = fc.dictionary(headerName, headerValue, { maxKeys: 5 });

/** Throws when the outcome breaks the invariant: a value, or an XError (a ValidationError for bodies). */
function expectSettledWell(run: () => unknown, kind: 'ValidationError' | 'XError'): void {
  try {
    run();
  } catch (error) {
    const typed = kind === 'XError' ? error instanceof XError : error instanceof ValidationError;
    if (!typed || !(error instanceof XError)) {
      const shown = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      throw new Error(`expected a ${kind}, got ${shown}`);
    }
    expect(`${error.message} ${JSON.stringify(error)}`).not.toContain(SECRET.value);
  }
}

let receiver: ScriptedServer;
beforeAll(async () => {
  receiver = await scriptedServer((req, res) => {
    try {
      if (!verifyWebhook(req.headers, SECRET)) return void res.writeHead(401).end();
      const out = JSON.stringify(parseWebhook(req.body));
      res.writeHead(200, { 'content-type': 'application/json' }).end(out);
    } catch (error) {
      res
        .writeHead(error instanceof ValidationError ? 400 : 500)
        .end(error instanceof Error ? error.name : 'thrown');
    }
  });
});
afterAll(() => receiver?.close());

describe('fuzz: webhooks', () => {
  for (const run of fuzzRuns(1500)) {
    it(`parseWebhook ${run.label}`, async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(body, async (input) => {
          n++;
          expectSettledWell(() => {
            const notification = parseWebhook(input);
            // What came from text is safe to log: nothing too deep to serialise comes back.
            if (typeof input === 'string' || input instanceof Uint8Array) JSON.stringify(notification);
          }, 'ValidationError');
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('parseWebhook', run, n);
    });
  }

  for (const run of fuzzRuns(1500)) {
    it(`verifyWebhook ${run.label}`, async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(headers, async (input) => {
          n++;
          expectSettledWell(() => {
            const verdict = verifyWebhook(input as Record<string, string>, SECRET);
            expect(typeof verdict).toBe('boolean');
            // Only the exact registered value verifies.
            if (verdict)
              expect(
                Object.entries(input).some(
                  ([, v]) => v === SECRET.value || (Array.isArray(v) && v[0] === SECRET.value),
                ),
              ).toBe(true);
          }, 'XError');
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('verifyWebhook', run, n);
    });
  }

  for (const run of fuzzRuns(200)) {
    it(`webhook receiver over HTTP ${run.label}`, async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(text, fc.boolean(), async (payload, signed) => {
          n++;
          const res = await fetch(receiver.url, {
            method: 'POST',
            body: payload,
            headers: signed ? { [SECRET.name]: SECRET.value } : {},
          });
          const answer = await res.text();
          expect([200, 400, 401], `${res.status} ${answer}`).toContain(res.status);
          if (!signed) expect(res.status).toBe(401);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('webhook receiver', run, n);
      const ok = await fetch(receiver.url, {
        method: 'POST',
        body: '{"transcript_id":"t1","status":"completed"}',
        headers: { [SECRET.name]: SECRET.value },
      });
      expect(ok.status).toBe(200);
    }, 60_000);
  }
});
