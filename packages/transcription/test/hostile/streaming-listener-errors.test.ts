/**
 * Hostile review of the streaming transcriber (issue 18): a listener that throws. The transcriber's events
 * go through @x/core's Emitter, which keeps the other listeners going and reports the throw to its log, but
 * the transcriber gave it a log that drops everything, so a bug in a user's `turn` or `begin` handler
 * vanished without a trace, even with a `log` option set.
 */
import { expect, it } from 'vitest';
import { StreamingTranscriber } from '../../src/streaming/index.js';
import { deafSandboxForFile, PARAMS } from '../helpers/deaf-sandbox.js';

const box = deafSandboxForFile();

it("a listener's throw reaches the log option, and the other listeners and connect() go on", async () => {
  const logged: { level: string; message: string; args: unknown[] }[] = [];
  const transcriber = new StreamingTranscriber(PARAMS, {
    apiKey: box.transcription.apiKey,
    baseUrl: box.url,
    log: (level, message, ...args) => logged.push({ level, message, args }),
  });
  const bug = new Error('bug in the app');
  const heard: string[] = [];
  transcriber.on('begin', () => {
    throw bug;
  });
  transcriber.on('begin', (begin) => heard.push(begin.id));
  const begin = await transcriber.connect();
  await transcriber.close();
  expect(heard).toEqual([begin.id]);
  const report = logged.find((line) => line.args.includes(bug));
  expect(report?.level).toBe('error');
  expect(report?.message).toContain('"begin"');
});
