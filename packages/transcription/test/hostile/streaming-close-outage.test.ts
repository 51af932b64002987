/**
 * Hostile review of the streaming transcriber (issue 18): `close({ waitForTermination: false })` (and
 * aborting `stream()`, which calls it) while the service cannot be reached. There is no session to send the
 * queued audio or a `Terminate` to, and the caller asked not to wait; yet close() waited for the reconnect
 * attempts to run out (measured: still pending after 8 s with the default backoff; up to a minute).
 */
import { expect, it } from 'vitest';
import { StreamingTranscriber } from '../../src/streaming/index.js';
import { deafSandbox, PARAMS } from '../helpers/deaf-sandbox.js';

it('close({ waitForTermination: false }) during an outage ends the transcriber without waiting for the reconnects', async () => {
  const box = await deafSandbox();
  const transcriber = new StreamingTranscriber(PARAMS, {
    apiKey: box.transcription.apiKey,
    baseUrl: box.url,
    // Three failed attempts and the transcriber gives up with a ConnectionError: the bug's only way out.
    reconnect: { maxAttempts: 3, backoff: { baseDelayMs: 2000, maxDelayMs: 2000 } },
  });
  const events: string[] = [];
  transcriber.on('error', (e) => events.push(`error ${e.name}`));
  transcriber.on('close', () => events.push('close'));
  await transcriber.connect();
  transcriber.sendAudio(new Int16Array(16000));
  const reconnecting = new Promise((resolve) => transcriber.on('reconnecting', resolve));
  await box.close(); // the service is gone: the session drops, and every reconnect is refused
  await reconnecting;
  const result = await transcriber.close({ waitForTermination: false });
  expect(result).toBeUndefined();
  // It closed at once, while reconnects were still allowed: not after they ran out.
  expect(events).toEqual(['close']);
});
