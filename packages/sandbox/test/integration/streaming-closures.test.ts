/**
 * Every way a `/v3/ws` session is closed by the server, over real sockets, as the docs' closures table gives
 * them: the `Error` frame (its `error_code` the close code) then the close. Audio frames of 50..1000 ms
 * (computed from bytes, rate and encoding) and no faster than real time (3007); invalid messages (3006); the
 * maximum session duration (3008, after a `Termination`); sessions per minute and at once (3009); a recogniser
 * that cannot start (3005, naming what to install); `inactivity_timeout`, reset by `KeepAlive`. Whatever way a
 * session ends, its recogniser is closed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { waitFor } from '../helpers/realtime.js';
import { concat, ScriptedRecognizers, StreamClient, silence, sleep, tone } from '../helpers/streaming.js';

let box: Sandbox<false>;
let url: string;
let key: string;
const recognizers = new ScriptedRecognizers([]);
const clients: StreamClient[] = [];
const LIMITED_KEY = 'limited_key';

beforeAll(async () => {
  box = await startSandbox({
    store: false,
    transcription: {
      apiKeys: ['closures_key', LIMITED_KEY],
      rateLimit: false,
      streaming: {
        recognizer: recognizers.factory,
        newSessionsPerMinute: 40,
        realtimeToleranceMs: 1500,
        minInactivityTimeoutSeconds: 1,
      },
    },
  });
  url = box.transcription!.streaming.url;
  key = 'closures_key';
});

afterAll(async () => {
  for (const c of clients) c.close();
  await box?.close();
});

async function open(query = 'sample_rate=16000', auth = key): Promise<StreamClient> {
  const client = await StreamClient.open(url, auth, query);
  clients.push(client);
  return client;
}

async function expectClosed(client: StreamClient, code: number, message: string | RegExp) {
  const closed = await client.closed;
  expect(closed.code).toBe(code);
  const errors = client.of('Error');
  expect(errors).toHaveLength(1);
  expect(errors[0]!.error_code).toBe(code);
  if (typeof message === 'string') expect(errors[0]!.error).toBe(message);
  else expect(errors[0]!.error).toMatch(message);
  // The Error frame is the last message before the close.
  expect(client.messages.at(-1)).toBe(errors[0]);
}

describe('audio frames (3007)', () => {
  it.each([
    ['pcm_s16le', 16_000, 1598, '49.938'],
    ['pcm_s16le', 16_000, 640, '20'],
    ['pcm_s16le', 16_000, 32_002, '1000.063'],
    ['pcm_s16le', 48_000, 96_002, '1000.021'],
    ['pcm_mulaw', 8000, 399, '49.875'],
    ['pcm_mulaw', 8000, 8001, '1000.125'],
  ])('%s at %i Hz: %i bytes is a %s ms frame, refused', async (encoding, rate, bytes, ms) => {
    const client = await open(`sample_rate=${rate}&encoding=${encoding}`);
    client.sendAudio(new Uint8Array(bytes));
    await expectClosed(client, 3007, `Input duration violation: ${ms} ms. Expected between 50 and 1000 ms`);
  });

  it.each([
    ['pcm_s16le', 16_000, 1600],
    ['pcm_s16le', 16_000, 32_000],
    ['pcm_s16le', 44_100, 4410],
    ['pcm_mulaw', 8000, 400],
    ['pcm_mulaw', 8000, 8000],
  ])('%s at %i Hz: %i bytes (exactly 50 or 1000 ms) is taken', async (encoding, rate, bytes) => {
    const client = await open(`sample_rate=${rate}&encoding=${encoding}`);
    client.sendAudio(new Uint8Array(bytes));
    client.send({ type: 'Terminate' });
    await client.next('Termination');
    expect((await client.closed).code).toBe(1000);
    expect(client.of('Error')).toEqual([]);
  });

  it('audio faster than real time past the tolerance is refused with both durations', async () => {
    const client = await open();
    for (let i = 0; i < 4; i++) client.sendAudio(silence(1000));
    await expectClosed(
      client,
      3007,
      /^Audio Transmission Rate Exceeded: Received \d+\.\d\d sec\. audio in \d+\.\d\d sec$/,
    );
  });
});

describe('client messages (3006)', () => {
  it.each([
    ['not json', 'Invalid JSON: not json'],
    ['[]', 'Invalid Message: []'],
    ['42', 'Invalid Message: 42'],
    ['{"terminate_session":true}', 'Invalid Message: {"terminate_session":true}'],
    ['{"type":7}', 'Invalid Message: {"type":7}'],
    ['{"type":"SessionTermination"}', 'Invalid Message Type: SessionTermination'],
    [`${'['.repeat(20)}${']'.repeat(20)}`, 'Invalid Message: JSON nested deeper than 16 levels'],
    [`{"type":"KeepAlive","pad":"${'x'.repeat(70_000)}"}`, /^Invalid Message: a text message of \d+ bytes/],
    [
      '{"type":"UpdateConfiguration","max_turn_silence":"long"}',
      /^Invalid Message: max_turn_silence must be an integer/,
    ],
    [
      '{"type":"UpdateConfiguration","end_of_turn_confidence_threshold":2}',
      /end_of_turn_confidence_threshold must be a number from 0 to 1/,
    ],
    ['{"type":"UpdateConfiguration","format_turns":"maybe"}', /format_turns must be true or false/],
  ])('%s closes with 3006', async (text, message) => {
    const client = await open();
    client.send(text);
    await expectClosed(client, 3006, message);
  });

  it('a long Error message closes with "See Error message for details"', async () => {
    const client = await open();
    client.send(`{"nope":"${'y'.repeat(150)}"}`);
    expect((await client.closed).reason).toBe('See Error message for details');
    expect(client.of('Error')[0]!.error.length).toBeGreaterThan(123);
  });

  it('UpdateConfiguration with documented, unknown and null fields is taken silently', async () => {
    const client = await open();
    client.send({
      type: 'UpdateConfiguration',
      end_of_turn_confidence_threshold: 0.7,
      min_turn_silence: null,
      max_turn_silence: 3600,
      unknown_field: { deep: [1] },
    });
    client.send({ type: 'KeepAlive' });
    client.send({ type: 'ForceEndpoint' });
    client.send({ type: 'Terminate' });
    await client.next('Termination');
    expect((await client.closed).code).toBe(1000);
    expect(client.messages.map((m) => m.type)).toEqual(['Begin', 'Termination']);
  });
});

describe('session clocks', () => {
  it('the maximum session duration ends the session: Termination, then Error 3008', async () => {
    const short = await startSandbox({
      store: false,
      transcription: { streaming: { recognizer: recognizers.factory, maxSessionSeconds: 1 } },
    });
    try {
      const client = await StreamClient.open(short.transcription!.streaming.url, short.transcription!.apiKey);
      await expectClosed(client, 3008, 'Session Expired: Maximum session duration exceeded');
      expect(client.messages.map((m) => m.type)).toEqual(['Begin', 'Termination', 'Error']);
    } finally {
      await short.close();
    }
  });

  it('inactivity_timeout ends an idle session; KeepAlive keeps another open meanwhile', async () => {
    const idle = await open('inactivity_timeout=1');
    const kept = await open('inactivity_timeout=1');
    const keepAlive = setInterval(() => kept.send({ type: 'KeepAlive' }), 200);
    try {
      const closed = await idle.closed;
      expect(closed).toEqual({ code: 1000, reason: 'Session terminated: inactivity timeout' });
      expect(idle.messages.map((m) => m.type)).toEqual(['Begin', 'Termination']);
      await sleep(1500);
      expect(kept.ws.readyState).toBe(kept.ws.OPEN);
      expect(kept.of('Termination')).toEqual([]);
    } finally {
      clearInterval(keepAlive);
    }
    expect(await kept.closed).toEqual({ code: 1000, reason: 'Session terminated: inactivity timeout' });
  });
});

describe('limits (3009)', () => {
  it('new sessions per key per minute', async () => {
    const limited = await startSandbox({
      store: false,
      transcription: {
        apiKeys: ['a', 'b'],
        streaming: { recognizer: recognizers.factory, newSessionsPerMinute: 2 },
      },
    });
    try {
      const streamUrl = limited.transcription!.streaming.url;
      const first = await StreamClient.open(streamUrl, 'a');
      const second = await StreamClient.open(streamUrl, 'a');
      first.close();
      await first.closed;
      // Closing a session does not give its slot back: the window counts sessions opened.
      const third = new StreamClient(`${streamUrl}?sample_rate=16000`, { headers: { Authorization: 'a' } });
      await expectClosed(third, 3009, 'Unauthorized Connection: Too many concurrent sessions');
      const otherKey = await StreamClient.open(streamUrl, 'b');
      expect(limited.transcription!.streaming.stats()).toMatchObject({ opened: 3, refused: { 3009: 1 } });
      second.close();
      otherKey.close();
    } finally {
      await limited.close();
    }
  });

  it('sessions open at once, across keys', async () => {
    const capped = await startSandbox({
      store: false,
      transcription: { streaming: { recognizer: recognizers.factory, maxConcurrentSessions: 1 } },
    });
    try {
      const { url: streamUrl } = capped.transcription!.streaming;
      const only = await StreamClient.open(streamUrl, capped.transcription!.apiKey);
      const refused = new StreamClient(`${streamUrl}`, {
        headers: { Authorization: capped.transcription!.apiKey },
      });
      await expectClosed(refused, 3009, 'Unauthorized Connection: Too many concurrent sessions');
      only.close();
      await only.closed;
      await waitFor(() => capped.transcription!.streaming.sessions().length === 0);
      (await StreamClient.open(streamUrl, capped.transcription!.apiKey)).close();
    } finally {
      await capped.close();
    }
  });
});

describe('the recogniser', () => {
  it('one that cannot start ends the session with 3005 and what to install', async () => {
    const without = await startSandbox({
      store: false,
      transcription: {
        streaming: {
          recognizer: async () => {
            throw new Error('python3-pocketsphinx is not installed: apt-get install python3-pocketsphinx');
          },
        },
      },
    });
    try {
      const client = await StreamClient.open(
        without.transcription!.streaming.url,
        without.transcription!.apiKey,
      );
      await expectClosed(client, 3005, /^Session Cancelled: .*apt-get install python3-pocketsphinx/);
    } finally {
      await without.close();
    }
  });

  it('one that stops answering ends the session with 3005 once 30 s of audio waits for it', async () => {
    let closed = 0;
    const stuck = await startSandbox({
      store: false,
      transcription: {
        streaming: {
          realtimeToleranceMs: 120_000,
          recognizer: async () => ({
            write: () => true,
            onUpdate: () => {},
            endUtterance: () => new Promise(() => {}),
            onError: () => {},
            close: () => {
              closed += 1;
            },
          }),
        },
      },
    });
    try {
      const client = await StreamClient.open(stuck.transcription!.streaming.url, stuck.transcription!.apiKey);
      // Speech, then a pause: the utterance's end waits for a recogniser that never answers.
      client.sendAudio(concat(tone(500), silence(500)));
      for (let i = 0; i < 31; i++) client.sendAudio(silence(1000));
      await expectClosed(
        client,
        3005,
        'Session Cancelled: the recogniser is not keeping up: 30 s of audio waits for it',
      );
      await waitFor(() => closed === 1);
    } finally {
      await stuck.close();
    }
  });

  it('is closed once for every session started, whatever way the sessions ended', async () => {
    await waitFor(() => box.transcription!.streaming.sessions().length === 0, 5000);
    const open = box.transcription!.streaming.sessions().length;
    expect(open).toBe(0);
    await waitFor(() => recognizers.closed === recognizers.started, 5000);
    expect(recognizers.started).toBeGreaterThan(20);
  });
});
