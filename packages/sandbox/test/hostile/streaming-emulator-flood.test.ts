/**
 * Hostile review of the streaming emulator (issue 18): a flood of `ForceEndpoint` messages while the
 * recogniser is busy finishing an utterance. Audio is bounded there (3005 once 30 s of it waits), but each
 * `ForceEndpoint` queued a step of its own behind the busy one, without bound: measured, 400,000 of them
 * (9.6 MB on the wire) grew the sandbox's heap by 85 MB and kept it, and the session stayed open.
 * Back-to-back `ForceEndpoint`s with no audio between them end the same turn, so they need one step.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Sandbox, type StreamingRecognizer, startSandbox } from '../../src/index.js';
import { waitFor } from '../helpers/realtime.js';
import { concat, StreamClient, silence, tone } from '../helpers/streaming.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A recogniser whose `endUtterance` answers only at `release()`: one busy finishing an utterance. */
let release = () => {};
const busy = async (): Promise<StreamingRecognizer> => {
  const pending: ((words: []) => void)[] = [];
  release = () => {
    for (const resolve of pending.splice(0)) resolve([]);
  };
  return {
    write: () => true,
    onUpdate: () => {},
    endUtterance: () => new Promise((resolve) => pending.push(resolve)),
    onError: () => {},
    close: () => release(),
  };
};

let box: Sandbox<false>;

beforeAll(async () => {
  box = await startSandbox({
    store: false,
    transcription: { streaming: { recognizer: busy, newSessionsPerMinute: false } },
  });
});

afterAll(async () => {
  release();
  await box?.close();
});

const audioMs = () => box.transcription!.streaming.sessions()[0]?.audio_ms ?? 0;

it('ForceEndpoint messages queued behind a busy recogniser cost bounded memory', async () => {
  const { streaming, apiKey } = box.transcription!;
  const client = await StreamClient.open(
    streaming.url,
    apiKey,
    'sample_rate=16000&speech_model=universal-streaming-english',
  );
  // Speech, then the pause that ends its utterance: the recogniser is asked for its words and stays busy.
  client.sendAudio(concat(tone(200), silence(600)));
  await waitFor(() => audioMs() >= 800);
  gc();
  const before = process.memoryUsage().heapUsed;
  const flood = 100_000;
  for (let i = 0; i < flood; i++) client.send('{"type":"ForceEndpoint"}');
  // Frames are read in order: once this one is counted, every ForceEndpoint before it was handled.
  client.sendAudio(silence(100));
  await waitFor(() => audioMs() >= 900, 20_000);
  gc();
  const grown = process.memoryUsage().heapUsed - before;
  release();
  client.send({ type: 'Terminate' });
  expect((await client.closed).code).toBe(1000);
  // ~210 bytes a message were kept before (21 MB here); a bounded queue keeps next to nothing.
  expect(grown).toBeLessThan(8 * 1024 * 1024);
});
