import { idempotencyKeyIssue } from '@x/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { TranscriptionClient, ValidationError } from '../../src/index.js';
import { type ScriptedServer, scriptedServer } from '../helpers/http-server.js';

/**
 * The idempotency options as callers pass them, against a real HTTP server that counts requests: an
 * unusable `idempotencyKey` (any value) is refused by submit() and transcribe() with a ValidationError
 * naming `idempotencyKey`, before any request and without quoting the key; any `idempotency` client
 * option either builds a client or throws a ValidationError naming `idempotency...`, nothing else.
 */
let server: ScriptedServer;
let baseUrl: string;

beforeAll(async () => {
  server = await scriptedServer((_req, res) => res.writeHead(500).end());
  baseUrl = server.url;
});
afterAll(() => server.close());

const badKey = fc
  .oneof(
    fc.string({ maxLength: 300 }),
    fc.string({
      unit: fc.constantFrom('a', ' ', '\t', '\n', '\u0000', '\u007f', '\uD800', '\uDFFF'),
      maxLength: 12,
    }),
    fc.anything(),
  )
  // `undefined` is no key at all (a plain submit), not a bad one.
  .filter((key) => key !== undefined && idempotencyKeyIssue(key) !== undefined);

describe('fuzz: idempotencyKey on submit and transcribe', () => {
  for (const run of fuzzRuns(150)) {
    it(`refused before any request, naming idempotencyKey, ${run.label}`, async () => {
      const client = new TranscriptionClient({
        apiKey: 'k_fuzz',
        baseUrl,
        rateLimit: false,
        logLevel: 'off',
      });
      let inputs = 0;
      await fc.assert(
        fc.asyncProperty(badKey, fc.boolean(), async (key, viaTranscribe) => {
          inputs++;
          const params = { audio_url: `${baseUrl}/a.wav`, speech_models: ['universal-2'] };
          const call = viaTranscribe
            ? client.transcripts.transcribe(params, { idempotencyKey: key as string })
            : client.transcripts.submit(params, { idempotencyKey: key as string });
          const error = await Promise.resolve(call).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(ValidationError);
          expect((error as ValidationError).issues.map((i) => i.path)).toEqual(['idempotencyKey']);
          if (typeof key === 'string' && key.trim().length >= 3)
            expect((error as Error).message).not.toContain(key);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      expect(server.arrived).toBe(0);
      reportFuzz('transcripts idempotencyKey', run, inputs);
    });
  }

  it('an object leaseMs whose toString is not callable is refused by name, not compared (found by fuzzing)', () => {
    const idempotency = { leaseMs: { toString: 0 }, ttlMs: 0 } as never;
    let caught: unknown;
    try {
      new TranscriptionClient({ apiKey: 'k_fuzz', baseUrl, idempotency });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect((caught as ValidationError).issues.map((i) => i.path)).toEqual([
      'idempotency.leaseMs',
      'idempotency.ttlMs',
    ]);
  });

  for (const run of fuzzRuns(300)) {
    it(`any idempotency client option builds a client or names its field, ${run.label}`, () => {
      let inputs = 0;
      const value = fc.oneof(fc.anything(), fc.double(), fc.integer());
      fc.assert(
        fc.property(
          fc.oneof(
            fc.anything(),
            fc.record({ leaseMs: value, ttlMs: value, store: value }, { requiredKeys: [] }),
          ),
          (idempotency) => {
            inputs++;
            try {
              new TranscriptionClient({ apiKey: 'k_fuzz', baseUrl, idempotency: idempotency as never });
            } catch (error) {
              expect(error).toBeInstanceOf(ValidationError);
              for (const issue of (error as ValidationError).issues)
                expect(issue.path).toMatch(/^idempotency/);
            }
          },
        ),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('TranscriptionClient idempotency option', run, inputs);
    });
  }
});
