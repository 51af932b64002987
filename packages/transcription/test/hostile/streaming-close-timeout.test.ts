/**
 * Hostile review of the streaming transcriber (issue 18): `close({ timeoutMs })` past setTimeout's range.
 * `Infinity` reads as "wait as long as it takes" and 2^31 ms as 24.8 days, but both resolved at once with
 * undefined (runtimes fire such a timer after 1 ms), before the Termination the service was about to send.
 */
import { expect, it } from 'vitest';
import { StreamingTranscriber } from '../../src/streaming/index.js';
import { deafSandboxForFile, PARAMS } from '../helpers/deaf-sandbox.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const box = deafSandboxForFile();

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
