import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import type { TranscriptionClient } from '../../src/index.js';
import {
  StreamingError,
  StreamingTranscriber,
  ValidationError,
  type XError,
} from '../../src/streaming/index.js';
import { connectionQuery } from '../../src/streaming/query.js';
import { clientFor, sandbox } from '../helpers/sandbox.js';

/*
 * The inputs a user gives the streaming client: connection params, transcriber options, updateConfiguration,
 * audio chunks and token params, near-valid and random. Each is accepted or refused with a ValidationError
 * (a StreamingError for use after close) naming fields, never anything else; what is accepted encodes into
 * a query the service reads back as given; token params the client accepts, the emulator accepts too.
 */

const KNOWN = {
  speech_model: fc.constantFrom('u3-rt-pro', 'universal-streaming-english', 'whisper-rt', 'future-model'),
  sample_rate: fc.oneof(fc.constantFrom(8000, 16000, 44100, 48000), fc.integer({ min: -5, max: 200_000 })),
  encoding: fc.constantFrom('pcm_s16le', 'pcm_mulaw', 'opus', ''),
  format_turns: fc.boolean(),
  end_of_turn_confidence_threshold: fc.double({ min: -0.5, max: 1.5 }),
  min_turn_silence: fc.integer({ min: -10, max: 5000 }),
  max_turn_silence: fc.integer({ min: -10, max: 5000 }),
  vad_threshold: fc.double({ min: -0.5, max: 1.5 }),
  keyterms_prompt: fc.array(fc.string({ maxLength: 20 }), { maxLength: 5 }),
  prompt: fc.string({ maxLength: 40 }),
  inactivity_timeout: fc.integer({ min: 0, max: 4000 }),
  language_detection: fc.boolean(),
  speaker_labels: fc.boolean(),
  max_speakers: fc.integer({ min: -1, max: 12 }),
  redact_pii: fc.boolean(),
  redact_pii_policies: fc.array(fc.constantFrom('person_name', 'phone_number', 'x'), { maxLength: 3 }),
  redact_pii_sub: fc.constantFrom('hash', 'entity_name', 'other'),
  webhook_url: fc.oneof(fc.webUrl(), fc.string({ maxLength: 20 })),
  llm_gateway: fc.record({ model: fc.string(), messages: fc.constant([]), max_tokens: fc.integer() }),
};

/** Mostly-right params: known fields with right or wrong values, a misspelt or unknown key now and then. */
const params = fc
  .tuple(
    fc.record(KNOWN, { requiredKeys: [] }),
    fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }),
    fc.boolean(),
  )
  .map(([known, extra, withExtra]) => (withExtra ? { ...extra, ...known } : known));

const anything = fc.anything({ maxDepth: 3 });

function settles(run: () => unknown, ...allowed: (abstract new (...args: never[]) => XError)[]): unknown {
  try {
    return run();
  } catch (error) {
    expect(
      allowed.some((Class) => error instanceof Class),
      String(error),
    ).toBe(true);
    for (const issue of (error as ValidationError).issues ?? []) {
      expect(typeof issue.path).toBe('string');
      expect(issue.message.length).toBeGreaterThan(0);
    }
    return error;
  }
}

let box: Awaited<ReturnType<typeof sandbox>>;
let client: TranscriptionClient;
beforeAll(async () => {
  box = await sandbox({ streaming: { newSessionsPerMinute: false } });
  client = clientFor(box, { streamingBaseUrl: box.url, maxRetries: 0 });
});
afterAll(() => box?.close());

describe('fuzz: streaming inputs', () => {
  for (const run of fuzzRuns(800)) {
    it(`connection params ${run.label}`, () => {
      let n = 0;
      fc.assert(
        fc.property(
          fc.oneof({ weight: 4, arbitrary: params }, { weight: 1, arbitrary: anything }),
          fc.boolean(),
          (input, loose) => {
            n++;
            const made = settles(
              () => new StreamingTranscriber(input as never, { token: 't', allowUnknownFields: loose }),
              ValidationError,
            );
            if (!(made instanceof StreamingTranscriber)) return;
            // What was accepted reaches the service as given: strings as they are, the rest as JSON.
            const query = connectionQuery(made.params);
            for (const [key, value] of Object.entries(made.params)) {
              if (value === undefined || value === null) continue;
              const sent = query.get(key);
              expect(sent).toBe(typeof value === 'object' ? JSON.stringify(value) : String(value));
              if (typeof value === 'object') expect(JSON.parse(sent!)).toEqual(value);
            }
          },
        ),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('streaming connection params', run, n);
    });
  }

  for (const run of fuzzRuns(500)) {
    it(`options, updateConfiguration and audio chunks ${run.label}`, () => {
      let n = 0;
      const options = fc.oneof(
        fc.record(
          {
            token: fc.oneof(fc.string({ maxLength: 8 }), anything),
            frameMs: fc.oneof(fc.integer({ min: 0, max: 2000 }), anything),
            maxQueueMs: fc.oneof(fc.integer({ min: 0, max: 100_000 }), anything),
            maxLeadMs: fc.oneof(fc.constant(Number.POSITIVE_INFINITY), fc.double(), anything),
            reconnect: fc.oneof(
              fc.constant(false),
              fc.record({ maxAttempts: fc.integer() }, { requiredKeys: [] }),
              anything,
            ),
            heartbeat: fc.oneof(fc.constant(false), fc.record({ idleMs: fc.double() }, { requiredKeys: [] })),
            baseUrl: fc.oneof(fc.webUrl(), fc.string({ maxLength: 20 })),
            frameMS: fc.integer(),
          },
          { requiredKeys: [] },
        ),
        anything,
      );
      fc.assert(
        fc.property(options, anything, anything, (opts, update, chunk) => {
          n++;
          const made = settles(
            () => new StreamingTranscriber({ speech_model: 'u3-rt-pro', sample_rate: 16000 }, opts as never),
            ValidationError,
          );
          if (!(made instanceof StreamingTranscriber)) return;
          settles(() => made.updateConfiguration(update as never), ValidationError);
          const sent = settles(() => made.sendAudio(chunk as never), ValidationError);
          if (typeof sent === 'boolean')
            expect(ArrayBuffer.isView(chunk) || chunk instanceof ArrayBuffer).toBe(true);
          void made.close();
          settles(() => made.sendAudio(new Uint8Array(4)), StreamingError);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('streaming options, updates and audio', run, n);
    });
  }

  for (const run of fuzzRuns(60)) {
    it(`token params against the emulator ${run.label}`, async () => {
      let n = 0;
      const tokenParams = fc.oneof(
        fc.record(
          {
            expires_in_seconds: fc.oneof(fc.integer({ min: -2, max: 700 }), fc.double(), anything),
            max_session_duration_seconds: fc.oneof(fc.integer({ min: 0, max: 11_000 }), anything),
          },
          { requiredKeys: [] },
        ),
        anything,
      );
      await fc.assert(
        fc.asyncProperty(tokenParams, async (input) => {
          n++;
          const before = box.transcription.stats().requests;
          const outcome = await client.streaming.createTemporaryToken(input as never).then(
            (token) => token,
            (error: unknown) => error,
          );
          if (outcome instanceof ValidationError) {
            // Refused before sending.
            expect(box.transcription.stats().requests).toBe(before);
          } else {
            // Accepted by the client: the service's documented ranges accept it too.
            expect(outcome).not.toBeInstanceOf(Error);
            expect(typeof (outcome as { token: string }).token).toBe('string');
          }
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('streaming token params', run, n);
    });
  }
});
