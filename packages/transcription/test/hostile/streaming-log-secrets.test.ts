/**
 * Hostile review of the streaming transcriber (issue 18): no secret in what it logs. @x/core's socket logs
 * `('debug', 'socket error', event)` with `ws`'s ErrorEvent, whose target is the WebSocket: its URL carries
 * the temporary token (`?token=`) and its upgrade request the API key (`Authorization`), so a `log` option
 * that prints its arguments (console.debug does, with util.inspect) printed both.
 */
import { inspect } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { StreamingTranscriber, type StreamingTranscriberOptions } from '../../src/streaming/index.js';
import { sandbox } from '../helpers/sandbox.js';

const PARAMS = { speech_model: 'universal-streaming-english', sample_rate: 16000 } as const;
const TOKEN = 'tok_hostile_0123456789abcdefghijkl';
const KEY = 'key_hostile_lkjihgfedcba9876543210';

let box: Awaited<ReturnType<typeof sandbox>>;

beforeAll(async () => {
  box = await sandbox({ streaming: { newSessionsPerMinute: false } });
});

afterAll(async () => {
  await box?.close();
});

/** Everything `log` was given, as console.debug would print it. */
async function logged(options: StreamingTranscriberOptions): Promise<string> {
  const lines: string[] = [];
  const transcriber = new StreamingTranscriber(PARAMS, {
    ...options,
    reconnect: false,
    log: (level, message, ...args) => lines.push(`${level} ${message} ${inspect(args, { depth: 8 })}`),
  });
  await transcriber.connect().then(
    () => expect.fail('connected'),
    () => {},
  );
  return lines.join('\n');
}

it('a token that meets a refused connection (ECONNREFUSED) is not in the log', async () => {
  // Nothing listens on port 1.
  const all = await logged({ getToken: () => TOKEN, baseUrl: 'http://127.0.0.1:1' });
  expect(all).toContain('socket error');
  expect(all).not.toContain(TOKEN);
});

it('an API key refused at the upgrade (HTTP 404) is not in the log', async () => {
  const all = await logged({ apiKey: KEY, baseUrl: `${box.url}/not-the-socket` });
  expect(all).toContain('socket error');
  expect(all).not.toContain(KEY);
});
