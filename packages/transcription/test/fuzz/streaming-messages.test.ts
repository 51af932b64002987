import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { decodeMessage, StreamingTranscriber, type TurnEvent, XError } from '../../src/streaming/index.js';

/*
 * What the service sends, from a hostile or broken server: a real WebSocket server that says Begin, then
 * random frames (near-valid Turns, Error frames, junk, binary), then closes with a random code or not at
 * all. The transcriber must settle every promise, throw nothing past its API, end with at most one `close`,
 * and keep its promises about turns: final turns in increasing order, never twice.
 */

const word = fc.record(
  {
    text: fc.oneof(fc.string({ maxLength: 8 }), fc.integer()),
    start: fc.oneof(fc.integer({ min: -100, max: 100_000 }), fc.double(), fc.string()),
    end: fc.integer({ min: -100, max: 100_000 }),
    confidence: fc.double(),
    word_is_final: fc.oneof(fc.boolean(), fc.constant('yes')),
  },
  { requiredKeys: [] },
);
const turn = fc.record(
  {
    type: fc.constant('Turn'),
    turn_order: fc.oneof(fc.integer({ min: -2, max: 6 }), fc.string()),
    turn_is_formatted: fc.boolean(),
    end_of_turn: fc.oneof(fc.boolean(), fc.constant(1)),
    transcript: fc.string({ maxLength: 20 }),
    end_of_turn_confidence: fc.double(),
    words: fc.oneof(fc.array(word, { maxLength: 4 }), fc.constant(null)),
  },
  { requiredKeys: ['type'] },
);
const message = fc.oneof(
  { weight: 5, arbitrary: turn.map((t) => JSON.stringify(t)) },
  {
    weight: 1,
    arbitrary: fc
      .record(
        {
          type: fc.constantFrom(
            'Begin',
            'SpeechStarted',
            'Termination',
            'Warning',
            'Error',
            'Heartbeat',
            'X',
          ),
          id: fc.string(),
          timestamp: fc.integer(),
          error: fc.string(),
          error_code: fc.integer(),
        },
        { requiredKeys: ['type'] },
      )
      .map((m) => JSON.stringify(m)),
  },
  { weight: 1, arbitrary: fc.json({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 40 }) },
);
const ending = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(1000, 1001, 1008, 1011, 3005, 3006, 3007, 3008, 3009, 4000),
);

let server: Server;
let wss: WebSocketServer;
let url: string;
let script: { frames: (string | Uint8Array)[]; close: number | undefined } = { frames: [], close: undefined };

beforeAll(async () => {
  server = createServer();
  wss = new WebSocketServer({ server });
  wss.on('connection', (ws: WebSocket) => {
    const { frames, close } = script;
    ws.on('error', () => {});
    ws.send(JSON.stringify({ type: 'Begin', id: 'session-1', expires_at: 2_000_000_000 }));
    for (const frame of frames) ws.send(frame);
    if (close !== undefined) ws.close(close, 'fuzz');
    // Otherwise Terminate is answered, as the service would.
    ws.on('message', (data, binary) => {
      if (!binary && String(data).includes('Terminate')) {
        ws.send(
          JSON.stringify({ type: 'Termination', audio_duration_seconds: 0, session_duration_seconds: 0 }),
        );
        ws.close(1000);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const ws of wss?.clients ?? []) ws.terminate();
  await new Promise((resolve) => server?.close(resolve));
});

describe('fuzz: streaming server messages', () => {
  for (const run of fuzzRuns(2000)) {
    it(`decodeMessage ${run.label}`, () => {
      let n = 0;
      fc.assert(
        fc.property(message, (frame) => {
          n++;
          const decoded = decodeMessage(typeof frame === 'string' ? frame : new TextDecoder().decode(frame));
          if (decoded.kind === 'known' && decoded.message.type === 'Turn') {
            for (const w of decoded.message.words) expect(typeof w.start).toBe('number');
          }
          if (decoded.kind === 'invalid') expect(decoded.reason.length).toBeLessThan(300);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('streaming decodeMessage', run, n);
    });
  }

  for (const run of fuzzRuns(40)) {
    it(`a transcriber fed random frames over a real socket ${run.label}`, async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(message, { maxLength: 25 }), ending, async (frames, close) => {
          n++;
          script = { frames, close };
          const transcriber = new StreamingTranscriber(
            { speech_model: 'u3-rt-pro', sample_rate: 16000 },
            { baseUrl: url, token: 't', reconnect: false, heartbeat: false },
          );
          const finals: TurnEvent[] = [];
          let closes = 0;
          transcriber.on('turn', (t) => {
            if (t.end_of_turn) finals.push(t);
          });
          transcriber.on('close', () => closes++);
          const errors: unknown[] = [];
          transcriber.on('error', (e) => errors.push(e));
          const begun = await transcriber.connect().then(
            () => true,
            (e: unknown) => expect(e).toBeInstanceOf(XError),
          );
          if (begun) transcriber.sendAudio(new Int16Array(1600));
          await transcriber.close({ timeoutMs: 500 });
          expect(closes).toBe(1);
          // Listeners' throws are swallowed by the emitter, so what they saw is checked here.
          for (const error of errors) expect(error).toBeInstanceOf(XError);
          for (let i = 1; i < finals.length; i++) {
            const [a, b] = [finals[i - 1]!, finals[i]!];
            expect(
              b.turn_order > a.turn_order ||
                (b.turn_order === a.turn_order && b.turn_is_formatted && !a.turn_is_formatted),
            ).toBe(true);
          }
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('streaming server frames', run, n);
    });
  }
});
