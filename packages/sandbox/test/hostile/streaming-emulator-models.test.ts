/**
 * Hostile review of the streaming emulator (issue 18): a `speech_model` named after a member of
 * Object.prototype must be refused like any unknown model, not looked up on the prototype.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { ScriptedRecognizers, StreamClient } from '../helpers/streaming.js';

let box: Sandbox<false>;

beforeAll(async () => {
  box = await startSandbox({
    store: false,
    transcription: {
      streaming: { newSessionsPerMinute: false, recognizer: new ScriptedRecognizers([]).factory },
    },
  });
});

afterAll(async () => {
  await box?.close();
});

it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])(
  'speech_model=%s (a name on Object.prototype) is refused with 3006 like any unknown model',
  async (model) => {
    const { streaming, apiKey } = box.transcription!;
    const client = new StreamClient(`${streaming.url}?sample_rate=16000&speech_model=${model}`, {
      headers: { Authorization: apiKey },
    });
    const first = await client.next(() => true);
    if (first.type === 'Begin') client.ws.terminate();
    expect(first.type).toBe('Error');
    expect(first.error).toMatch(/^Input validation error: speech_model must be one of /);
    expect((await client.closed).code).toBe(3006);
  },
);
