/**
 * Opening a `/v3/ws` session over a real socket: the API key in `Authorization` or a temporary token in
 * `?token=`, refused with the docs' `Error` frame and close 1008; `Begin` with a uuid and `expires_at` in Unix
 * seconds; the query parameters checked as documented (3006), unknown ones ignored; `Terminate` answered with
 * `Termination` (integer durations) and close 1000.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { waitFor } from '../helpers/realtime.js';
import { ScriptedRecognizers, StreamClient, silence, sleep } from '../helpers/streaming.js';

let box: Sandbox<false>;
let url: string;
let key: string;
const recognizers = new ScriptedRecognizers([]);
const clients: StreamClient[] = [];

beforeAll(async () => {
  box = await startSandbox({
    store: false,
    transcription: {
      rateLimit: false,
      streaming: { recognizer: recognizers.factory, newSessionsPerMinute: false },
    },
  });
  url = box.transcription!.streaming.url;
  key = box.transcription!.apiKey;
});

afterAll(async () => {
  for (const c of clients) c.close();
  await box?.close();
});

function connect(query: string, auth: string | null = key): StreamClient {
  const client = new StreamClient(
    `${url}?${query}`,
    auth === null ? {} : { headers: { Authorization: auth } },
  );
  clients.push(client);
  return client;
}

async function token(query = 'expires_in_seconds=60'): Promise<string> {
  const res = await fetch(`${box.url}/v3/token?${query}`, { headers: { Authorization: key } });
  return (await res.json()).token;
}

/** The refusal the docs describe: an `Error` frame whose code is the close code, then the close. */
async function expectRefused(client: StreamClient, code: number, message: string | RegExp) {
  const closed = await client.closed;
  expect(closed.code).toBe(code);
  const errors = client.of('Error');
  expect(errors).toHaveLength(1);
  expect(errors[0]!.error_code).toBe(code);
  if (typeof message === 'string') expect(errors[0]!.error).toBe(message);
  else expect(errors[0]!.error).toMatch(message);
  expect(Object.keys(errors[0]!).sort()).toEqual(['error', 'error_code', 'type']);
  const reason =
    Buffer.byteLength(errors[0]!.error) <= 123 ? errors[0]!.error : 'See Error message for details';
  expect(closed.reason).toBe(reason);
  expect(client.of('Begin')).toEqual([]);
}

describe('auth', () => {
  it('an API key in Authorization opens a session: Begin, then Terminate → Termination → 1000', async () => {
    const before = Math.floor(Date.now() / 1000);
    const client = connect('sample_rate=16000');
    const begin = await client.next('Begin');
    expect(Object.keys(begin).sort()).toEqual(['expires_at', 'id', 'type']);
    expect(begin.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number.isInteger(begin.expires_at)).toBe(true);
    expect(begin.expires_at).toBeGreaterThanOrEqual(before + 10_800);
    expect(begin.expires_at).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 10_800);
    const listed = box.transcription!.streaming.sessions();
    expect(listed.find((s) => s.id === begin.id)).toMatchObject({
      via: 'api_key',
      speech_model: 'u3-rt-pro',
      sample_rate: 16_000,
      encoding: 'pcm_s16le',
      audio_ms: 0,
      turn_order: 0,
      stalled: false,
    });
    await client.stream(silence(1200), { paceMs: 0 });
    client.send({ type: 'Terminate' });
    const termination = await client.next('Termination');
    expect(Object.keys(termination).sort()).toEqual([
      'audio_duration_seconds',
      'session_duration_seconds',
      'type',
    ]);
    expect(termination.audio_duration_seconds).toBe(1);
    expect(Number.isInteger(termination.session_duration_seconds)).toBe(true);
    expect((await client.closed).code).toBe(1000);
    expect(client.messages.map((m) => m.type)).toEqual(['Begin', 'Termination']);
    await waitFor(() => !box.transcription!.streaming.sessions().some((s) => s.id === begin.id));
  });

  it('no key, a wrong key, or Bearer before it: 1008 with the documented message', async () => {
    await expectRefused(
      connect('sample_rate=16000', null),
      1008,
      'Unauthorized Connection: Missing Authorization header',
    );
    await expectRefused(
      connect('sample_rate=16000', 'wrong'),
      1008,
      'Unauthorized Connection: Invalid API key',
    );
    await expectRefused(connect('', `Bearer ${key}`), 1008, 'Unauthorized Connection: Invalid API key');
  });

  it('a temporary token opens one session, carrying its max session duration into expires_at', async () => {
    const t = await token('expires_in_seconds=60&max_session_duration_seconds=120');
    const before = Math.floor(Date.now() / 1000);
    const client = connect(`sample_rate=16000&token=${t}`, null);
    const begin = await client.next('Begin');
    expect(begin.expires_at).toBeGreaterThanOrEqual(before + 120);
    expect(begin.expires_at).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 120);
    expect(box.transcription!.streaming.sessions().find((s) => s.id === begin.id)?.via).toBe('token');
    // Single use: the same token again, even while its first session is open, is refused.
    await expectRefused(
      connect(`sample_rate=16000&token=${t}`, null),
      1008,
      'Unauthorized Connection: Temporary token has already been used',
    );
    client.send({ type: 'Terminate' });
    expect((await client.closed).code).toBe(1000);
  });

  it('an unknown token, and a token past expires_in_seconds, are refused with 1008', async () => {
    await expectRefused(
      connect('token=nope', null),
      1008,
      'Unauthorized Connection: Invalid temporary token',
    );
    const t = await token('expires_in_seconds=1');
    await sleep(1100);
    await expectRefused(
      connect(`token=${t}`, null),
      1008,
      'Unauthorized Connection: Temporary token has expired',
    );
  });

  it('a token spent on a refused session stays spent', async () => {
    const t = await token();
    await expectRefused(connect(`sample_rate=1&token=${t}`, null), 3006, /sample_rate/);
    await expectRefused(connect(`token=${t}`, null), 1008, /already been used/);
  });

  it('auth is checked before parameters', async () => {
    await expectRefused(
      connect('sample_rate=abc', 'wrong'),
      1008,
      'Unauthorized Connection: Invalid API key',
    );
  });
});

describe('connection parameters', () => {
  it.each([
    [
      'sample_rate=abc',
      /^Input validation error: sample_rate must be an integer from 8000 to 48000, got "abc"$/,
    ],
    ['sample_rate=7999', /sample_rate must be an integer from 8000 to 48000/],
    ['sample_rate=16000.5', /sample_rate must be an integer/],
    ['encoding=opus', /encoding must be one of pcm_s16le, pcm_mulaw/],
    ['encoding=PCM_S16LE', /encoding must be one of/],
    ['speech_model=best', /speech_model must be one of .*u3-rt-pro/],
    ['format_turns=yes', /format_turns must be true or false/],
    ['end_of_turn_confidence_threshold=1.5', /end_of_turn_confidence_threshold must be a number from 0 to 1/],
    ['min_turn_silence=-1', /min_turn_silence must be an integer/],
    ['max_turn_silence=1e3', /max_turn_silence must be an integer/],
    ['vad_threshold=x', /vad_threshold must be a number/],
    ['inactivity_timeout=4', /inactivity_timeout must be an integer from 5 to 3600/],
    ['inactivity_timeout=3601', /inactivity_timeout must be an integer from 5 to 3600/],
    ['max_speakers=11', /max_speakers must be an integer from 1 to 10/],
    ['keyterms_prompt=notjson', /keyterms_prompt must be a JSON array of strings/],
    ['keyterms_prompt=[1,2]', /keyterms_prompt must be an array of at most 1000 strings/],
    ['speaker_labels=1', /speaker_labels must be true or false/],
  ])('%s is refused with 3006 naming the parameter', async (query, message) => {
    await expectRefused(connect(query), 3006, message);
  });

  it('unknown parameters are ignored, documented ones taken, the deprecated silence name read', async () => {
    const client = connect(
      [
        'sample_rate=8000',
        'encoding=pcm_mulaw',
        'speech_model=universal-streaming-english',
        'format_turns=true',
        'keyterms_prompt=%5B%22refund%22%5D',
        'min_end_of_turn_silence_when_confident=160',
        'inactivity_timeout=5',
        'whatever=1',
        'webhook_url=http%3A%2F%2Fexample.com',
      ].join('&'),
    );
    const begin = await client.next('Begin');
    expect(box.transcription!.streaming.sessions().find((s) => s.id === begin.id)).toMatchObject({
      sample_rate: 8000,
      encoding: 'pcm_mulaw',
      speech_model: 'universal-streaming-english',
    });
    client.send({ type: 'Terminate' });
    expect((await client.closed).code).toBe(1000);
  });
});
