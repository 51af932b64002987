/**
 * Hostile review of the streaming transcriber (issue 18): `close({ timeoutMs })` past setTimeout's range.
 * `Infinity` reads as "wait as long as it takes" and 2^31 ms as 24.8 days, but both resolved at once with
 * undefined (runtimes fire such a timer after 1 ms), before the Termination the service was about to send.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { StreamingTranscriber } from '../../src/streaming/index.js';
import { type Sandbox, sandbox } from '../helpers/sandbox.js';

const PARAMS = { speech_model: 'universal-streaming-english', sample_rate: 16000 } as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A recogniser that hears nothing: these tests are about the session's end, not its words. */
const deaf = async () => ({
  write: () => true,
  onUpdate: () => {},
  endUtterance: async () => [],
  onError: () => {},
  close: () => {},
});

let box: Awaited<ReturnType<typeof sandbox>> & Sandbox<false>;

beforeAll(async () => {
  box = await sandbox({ streaming: { recognizer: deaf, newSessionsPerMinute: false } });
});

afterAll(async () => {
  await box?.close();
});

it.each([Number.POSITIVE_INFINITY, 2 ** 31])(
  'close({ timeoutMs: %s }) waits for the Termination of a session that answers late',
  async (timeoutMs) => {
    const transcriber = new StreamingTranscriber(PARAMS, {
      apiKey: box.transcription.apiKey,
      baseUrl: box.url,
      heartbeat: false,
    });
    await transcriber.connect();
    // The session stops reading: Terminate waits in its socket until it resumes.
    const resume = box.transcription.streaming.stallSessions();
    let settled = false;
    const closing = transcriber.close({ timeoutMs }).finally(() => {
      settled = true;
    });
    await sleep(50);
    const settledWhileStalled = settled;
    resume();
    const termination = await closing;
    expect(settledWhileStalled).toBe(false);
    expect(termination?.type).toBe('Termination');
  },
);
