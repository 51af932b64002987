/**
 * Fuzzing the streaming emulator's socket over real connections: random query strings on the upgrade, and
 * random sequences of text and binary frames in a session (random JSON of any depth, client messages with
 * random fields, audio of random sizes around the 50..1000 ms bounds, random bytes). Each input gets a fresh
 * session and ends with `Terminate`; the session must end the documented way: `Termination` then 1000, or an
 * `Error` frame whose code is the close code (1008 or 3006 at the handshake, 3006 or 3007 in a session), or
 * `ws`'s own 1007 (invalid UTF-8); never 3005 or 1011 (a sandbox failure), never a hang. Every message must
 * be well formed. A control session, open throughout, keeps getting its turns: no input disturbs another
 * session, and the process survives.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { type Sandbox, startSandbox } from '../../src/index.js';
import {
  concat,
  type Message,
  ScriptedRecognizers,
  StreamClient,
  silence,
  tone,
  word,
} from '../helpers/streaming.js';

/** A word every 600 ms for ten minutes: whatever speech a session sends, the recogniser hears words. */
const script = Array.from({ length: 1000 }, (_, i) => word(`w${i}`, i * 600 + 100, i * 600 + 400));
const recognizers = new ScriptedRecognizers(script);
let box: Sandbox<false>;
let url: string;
let key: string;
let control: StreamClient;

beforeAll(async () => {
  box = await startSandbox({
    store: false,
    transcription: {
      rateLimit: false,
      streaming: {
        recognizer: recognizers.factory,
        newSessionsPerMinute: false,
        maxConcurrentSessions: 1000,
        minInactivityTimeoutSeconds: 1,
      },
    },
  });
  url = box.transcription!.streaming.url;
  key = box.transcription!.apiKey;
  control = await StreamClient.open(url, key, 'speech_model=universal-streaming-english');
});

afterAll(async () => {
  control?.close();
  await box?.close();
});

const TYPES = new Set(['Begin', 'Turn', 'SpeechStarted', 'Termination', 'Error']);

function expectWellFormed(messages: Message[]): void {
  for (const m of messages) {
    if (!TYPES.has(m.type)) throw new Error(`unknown message ${JSON.stringify(m).slice(0, 200)}`);
    if (m.type === 'Turn') {
      expect(Number.isInteger(m.turn_order)).toBe(true);
      expect(typeof m.transcript).toBe('string');
      expect(typeof m.utterance).toBe('string');
      expect(m.end_of_turn_confidence).toBeGreaterThanOrEqual(0);
      expect(m.end_of_turn_confidence).toBeLessThanOrEqual(1);
      for (const w of m.words) {
        expect(Number.isInteger(w.start) && Number.isInteger(w.end) && w.end >= w.start).toBe(true);
        expect(typeof w.word_is_final).toBe('boolean');
      }
    }
    if (m.type === 'Termination') {
      expect(Number.isInteger(m.audio_duration_seconds)).toBe(true);
      expect(Number.isInteger(m.session_duration_seconds)).toBe(true);
    }
  }
}

/**
 * How a session (or a refused connect) must end: `Termination` and 1000, or the `Error` frame and its code
 * (one of `codes`), or 1007 from `ws`. Resolves with the close code.
 */
async function expectDocumentedEnd(client: StreamClient, codes: Set<number>): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the session did not end within 10 s')), 10_000);
  });
  const closed = await Promise.race([client.closed, hang]).finally(() => clearTimeout(timer));
  expectWellFormed(client.messages);
  const errors = client.of('Error');
  if (closed.code === 1000) {
    expect(errors).toEqual([]);
    expect(client.messages.at(-1)?.type).toBe('Termination');
  } else if (closed.code === 1007) {
    expect(errors).toEqual([]);
  } else {
    if (!codes.has(closed.code)) throw new Error(`closed with ${closed.code} (${closed.reason})`);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.error_code).toBe(closed.code);
    expect(client.messages.at(-1)).toBe(errors[0]);
  }
  return closed.code;
}

/** The control session still reads audio and answers with its turn. */
async function controlStillServed(): Promise<void> {
  expect(control.ws.readyState).toBe(control.ws.OPEN);
  const ends = control.of('Turn').filter((m) => m.end_of_turn).length;
  await control.stream(concat(tone(500), silence(500)));
  control.send({ type: 'ForceEndpoint' });
  await control.next(
    (m) =>
      m.type === 'Turn' && m.end_of_turn && control.of('Turn').filter((t) => t.end_of_turn).length > ends,
  );
  expectWellFormed(control.messages);
}

const anyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 100 }),
  fc.string({ unit: 'binary' }),
);
const deepJson = fc
  .tuple(fc.nat({ max: 5000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  );
const fieldValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.double(),
  fc.integer({ min: -1, max: 4_000_000 }),
  fc.constantFrom(0, 1, 0.4, 'true', 'false', null, [], ['a'], Number.MAX_VALUE, 'Infinity', '1e400'),
);
const PARAMS = [
  'sample_rate',
  'encoding',
  'speech_model',
  'format_turns',
  'keyterms_prompt',
  'prompt',
  'end_of_turn_confidence_threshold',
  'min_turn_silence',
  'max_turn_silence',
  'min_end_of_turn_silence_when_confident',
  'vad_threshold',
  'inactivity_timeout',
  'language_detection',
  'speaker_labels',
  'max_speakers',
  'token',
  '__proto__',
];
const clientMessage = fc
  .record({
    type: fc.oneof(
      fc.constantFrom('UpdateConfiguration', 'ForceEndpoint', 'KeepAlive', 'Terminate'),
      anyString,
    ),
    fields: fc.dictionary(fc.oneof(fc.constantFrom(...PARAMS), anyString), fieldValue, { maxKeys: 5 }),
  })
  .map(({ type, fields }) => JSON.stringify({ ...fields, type }));
const textFrame = fc.oneof(
  { weight: 3, arbitrary: clientMessage },
  fc.json({ maxDepth: 4 }),
  deepJson,
  anyString,
  fc.string({ minLength: 60_000, maxLength: 70_000 }),
);
/** Audio lengths around the bounds (at 16 kHz s16le: 1600 bytes is 50 ms, 32000 is 1000 ms) and random bytes. */
const binaryFrame = fc.oneof(
  fc.integer({ min: 1590, max: 1610 }).map((n) => new Uint8Array(n)),
  fc.integer({ min: 31_990, max: 32_010 }).map((n) => new Uint8Array(n)),
  fc.integer({ min: 1600, max: 32_000 }).map((n) => tone((n / 32) | 0).subarray(0, n - (n % 2))),
  fc.uint8Array({ maxLength: 4096 }),
);
const frames = fc.array(
  fc.oneof(
    textFrame.map((text) => ({ text })),
    binaryFrame.map((bytes) => ({ bytes })),
  ),
  { minLength: 1, maxLength: 6 },
);

const queryPart = fc
  .tuple(fc.oneof(fc.constantFrom(...PARAMS), anyString), fc.oneof(fieldValue.map(String), anyString))
  .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
const queries = fc.oneof(
  fc.array(queryPart, { maxLength: 6 }).map((parts) => parts.join('&')),
  fc.string({ maxLength: 300 }).map((raw) => raw.replace(/[#\s]/g, '')),
);

function fuzz<T>(surface: string, runs: number, arb: fc.Arbitrary<T>, check: (input: T) => Promise<void>) {
  for (const run of fuzzRuns(runs)) {
    it(`${surface} ${run.label}`, async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(arb, async (input) => {
          n++;
          await check(input);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz(surface, run, n);
      await controlStillServed();
    }, 120_000);
  }
}

describe('streaming socket', () => {
  fuzz('streaming ws query strings', 150, queries, async (query) => {
    let client: StreamClient;
    try {
      client = new StreamClient(`${url}?${query}`, { headers: { Authorization: key } });
    } catch {
      return; // a URL the client library itself refuses never reaches the server
    }
    client.ws.once('message', () => client.send({ type: 'Terminate' }));
    const code = await expectDocumentedEnd(client, new Set([1008, 3006]));
    if (code !== 1000) expect(client.of('Begin')).toEqual([]);
  });

  fuzz('streaming ws frames', 200, frames, async (sequence) => {
    const client = await StreamClient.open(
      url,
      key,
      'speech_model=universal-streaming-english&format_turns=true',
    );
    for (const frame of sequence) {
      if ('text' in frame) client.ws.send(frame.text);
      else client.sendAudio(frame.bytes);
    }
    client.send({ type: 'Terminate' });
    await expectDocumentedEnd(client, new Set([3006, 3007]));
  });

  it('a frame past the server bound (1 MiB) is closed by ws with 1009; other sessions go on', async () => {
    const client = await StreamClient.open(url, key);
    client.sendAudio(new Uint8Array(1024 * 1024 + 1));
    expect((await client.closed).code).toBe(1009);
    await controlStillServed();
  });

  it('afterwards: every recogniser started was closed but the control one, and new sessions open', async () => {
    const other = await StreamClient.open(url, key);
    other.send({ type: 'Terminate' });
    await other.next('Termination');
    await other.closed;
    const live = box.transcription!.streaming.sessions();
    expect(live.map((s) => s.id)).toEqual([control.messages[0]!.id]);
    await expect.poll(() => recognizers.started - recognizers.closed).toBe(1);
  });
});
