import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { AbortError, TranscriptionClient, ValidationError } from '../../src/index.js';
import { type ScriptedServer, scriptedServer } from '../helpers/http-server.js';

/**
 * The wait options (old and new) and notify() bodies as callers pass them, against a real HTTP server that
 * counts requests. With an aborted signal, every option set ends before any request: a ValidationError
 * naming only wait options, or (when they are valid) an AbortError. notify() answers a boolean or a
 * ValidationError, whatever it is given.
 */
let server: ScriptedServer;
let baseUrl: string;

beforeAll(async () => {
  server = await scriptedServer((_req, res) => res.writeHead(500).end());
  baseUrl = server.url;
});
afterAll(() => server.close());

const NAMES = [
  'pollInterval',
  'maxPollInterval',
  'deadline',
  'audioDuration',
  'expectWebhook',
  'webhookPollInterval',
  'onStatus',
  'onUploadProgress',
] as const;

const value = fc.oneof(
  { weight: 3, arbitrary: fc.double({ noDefaultInfinity: false }) },
  { weight: 2, arbitrary: fc.integer({ min: -10, max: 100_000 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, 1_000, 15_000, Number.NaN, -0) },
  { weight: 1, arbitrary: fc.anything() },
  { weight: 1, arbitrary: fc.constant(() => {}) },
);
const options = fc.record(Object.fromEntries(NAMES.map((n) => [n, value])) as Record<string, typeof value>, {
  requiredKeys: [],
});

describe('fuzz: wait options of transcribe() and waitUntilDone()', () => {
  for (const run of fuzzRuns(200)) {
    it(`refused by name or aborted, never sent, ${run.label}`, async () => {
      const client = new TranscriptionClient({
        apiKey: 'k_fuzz',
        baseUrl,
        rateLimit: false,
        logLevel: 'off',
      });
      const aborted = AbortSignal.abort();
      let inputs = 0;
      await fc.assert(
        fc.asyncProperty(options, fc.boolean(), async (opts, viaTranscribe) => {
          inputs++;
          const call = viaTranscribe
            ? client.transcripts.transcribe(
                { audio_url: `${baseUrl}/a.wav`, speech_models: ['universal-2'] },
                { ...(opts as object), signal: aborted },
              )
            : client.transcripts.waitUntilDone('t-fuzz', { ...(opts as object), signal: aborted });
          const error = await Promise.resolve(call).then(
            () => undefined,
            (e: unknown) => e,
          );
          if (error instanceof ValidationError) {
            expect(error.issues.length).toBeGreaterThan(0);
            const names: readonly string[] = viaTranscribe ? NAMES : NAMES.slice(0, -1);
            for (const issue of error.issues) expect(names).toContain(issue.path);
          } else expect(error).toBeInstanceOf(AbortError);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      expect(server.arrived).toBe(0);
      reportFuzz('transcripts wait options', run, inputs);
    });
  }
});

describe('fuzz: transcripts.notify()', () => {
  const body = fc.oneof(
    fc.record(
      { transcript_id: fc.oneof(fc.string(), fc.anything()), status: fc.oneof(fc.string(), fc.anything()) },
      { requiredKeys: [] },
    ),
    fc.json({ maxDepth: 3 }),
    fc.string(),
    fc.uint8Array({ maxLength: 64 }),
    fc.anything(),
  );
  for (const run of fuzzRuns(300)) {
    it(`a boolean or a ValidationError, ${run.label}`, () => {
      const client = new TranscriptionClient({
        apiKey: 'k_fuzz',
        baseUrl,
        rateLimit: false,
        logLevel: 'off',
      });
      let inputs = 0;
      fc.assert(
        fc.property(body, (b) => {
          inputs++;
          try {
            expect(typeof client.transcripts.notify(b)).toBe('boolean');
          } catch (error) {
            expect(error).toBeInstanceOf(ValidationError);
          }
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      expect(server.arrived).toBe(0);
      reportFuzz('transcripts.notify body', run, inputs);
    });
  }
});
