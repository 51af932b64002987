/**
 * Hostile review of the streaming transcriber (issue 18): the queue bound across a reconnect. The README:
 * "The queue holds at most `maxQueueMs` of audio"; the replay (`reconnect.replayMs`, default 60 s, twice
 * the default queue) goes back into it whole, past the bound. Since audio then goes out at real time, the
 * excess never drains: measured with the defaults, 6 s of audio without a final turn (silence, hold music)
 * then a drop left `queuedMs` at 5,100 for the rest of the session, every later turn 5 s late; past
 * `maxQueueMs` of replay, `sendAudio()` refuses live audio from then on. Fixed in b78bdb7: the replay is bounded
 * by the queue's free room, and silence beyond the start of each pause is skipped while the backlog exceeds
 * `maxLeadMs` (src/streaming/silence.ts), since sending faster than real time is what the service forbids.
 */
import { expect, it } from 'vitest';
import { StreamingTranscriber } from '../../src/streaming/index.js';
import { deafSandboxForFile, PARAMS } from '../helpers/deaf-sandbox.js';
import { until } from '../helpers/streaming.js';

const MAX_QUEUE_MS = 1000;

const box = deafSandboxForFile();

it('a replay after a drop keeps the queue within maxQueueMs', async () => {
  const transcriber = new StreamingTranscriber(PARAMS, {
    apiKey: box.transcription.apiKey,
    baseUrl: box.url,
    maxQueueMs: MAX_QUEUE_MS,
    maxLeadMs: 3000, // within the emulator's 5 s tolerance: the test need not wait for real time
  });
  await transcriber.connect();
  for (let i = 0; i < 3; i++) expect(transcriber.sendAudio(new Int16Array(14_400))).toBe(true); // 900 ms each
  await until(() => transcriber.queuedMs === 0, 'the audio to be sent');
  await until(
    () => (box.transcription.streaming.sessions()[0]?.audio_ms ?? 0) >= 2700,
    'the audio to arrive',
  );
  const queuedAtReconnect = new Promise<number>((resolve) =>
    transcriber.on('reconnecting', () => resolve(transcriber.queuedMs)),
  );
  box.transcription.streaming.dropSessions();
  const queued = await queuedAtReconnect;
  await transcriber.close({ waitForTermination: false });
  expect(queued).toBeLessThanOrEqual(MAX_QUEUE_MS);
});
