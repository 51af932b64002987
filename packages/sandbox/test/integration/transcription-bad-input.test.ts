/**
 * Malformed and hostile input against the transcription emulator over real sockets (fetch, node:http, node:net).
 *
 * Every refused request must come back as the service's one error shape, `{"error": "<message>"}`, with the
 * status AssemblyAI's v2 API uses (400 for bad bodies and unknown ids, 401 auth, 403 another project's upload,
 * 404/405 routes, 413 sizes, 429 rate windows) and a message naming the problem. Failures the service only
 * finds while running a job (no audio, too short, too long, unreachable URL) are HTTP 200 with `status: "error"`.
 * A real job submitted before the barrage, and another after it, must still complete: the server stays up.
 */

import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox, synthesizeSpeech } from '../../src/index.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const KEY = 'bad_input_key';
const OTHER = 'bad_input_other_project';
const LOOKUP = 'Transcript lookup error, transcript id not found';
const UNAUTHORIZED = 'Authentication error, API token missing/invalid';
const UNKNOWN_ID = '5b1cbd0e-6a4d-4f57-9b3b-2f0a5c1d9e77';
const MODELS = ['universal-3-pro', 'universal-2'];

let box: Sandbox<false>;
/** `maxUploadBytes: 1000`, and a one-request window for the model `tiny`. */
let small: Sandbox<false>;
/** `maxAudioSeconds: 2`. */
let short: Sandbox<false>;
/** Answers `audio_url` downloads only when told to, so a job stays unfinished meanwhile. */
let hold: http.Server;
let releaseHeld: () => void = () => {};
let heldRequested: Promise<void>;
let speech: Buffer;
let beforeId: string;
let heldId: string;
let foreignUploadUrl: string;

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

async function call(
  path: string,
  init: { method?: string; body?: string | Buffer; key?: string | null; base?: Sandbox<false> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.key !== null) headers.authorization = init.key ?? KEY;
  const res = await fetch(`${(init.base ?? box).url}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: typeof init.body === 'string' ? init.body : init.body && new Uint8Array(init.body),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, text, json };
}

/** `{"error": "<message>"}` and nothing else, with this status and a message matching `message`. */
function expectError(res: Answer, status: number, message: string | RegExp) {
  const context = `HTTP ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, context).toBe(status);
  expect(res.headers.get('content-type'), context).toMatch(/^application\/json/);
  expect(Object.keys(res.json ?? {}), context).toEqual(['error']);
  if (typeof message === 'string') expect(res.json.error).toBe(message);
  else expect(res.json.error).toMatch(message);
}

const create = (params: unknown, base?: Sandbox<false>) =>
  call('/v2/transcript', { method: 'POST', body: JSON.stringify(params), base });
const valid = (extra: Record<string, unknown> = {}) => ({
  audio_url: 'https://example.com/a.wav',
  speech_models: MODELS,
  ...extra,
});

async function upload(body: Buffer, base = box, key = KEY): Promise<string> {
  const res = await call('/v2/upload', { method: 'POST', body, key, base });
  expect(res.status, res.text).toBe(200);
  return res.json.upload_url;
}

async function submit(audio_url: string, base = box): Promise<string> {
  const res = await create({ audio_url, speech_models: MODELS }, base);
  expect(res.status, res.text).toBe(200);
  expect(res.json.status).toBe('queued');
  return res.json.id;
}

async function transcript(id: string, base = box): Promise<any> {
  const res = await call(`/v2/transcript/${id}`, { base });
  expect(res.status, res.text).toBe(200);
  return res.json;
}

/** A WAV with no samples (0 s): RIFF, WAVE, `fmt ` 16 kHz mono 16-bit PCM, then a `data` chunk of 0 bytes. */
const EMPTY_WAV = Buffer.from(
  '524946462400000057415645666d74201000000001000100803e0000007d0000020010006461746100000000',
  'hex',
);

beforeAll(async () => {
  [box, small, short] = await Promise.all([
    startSandbox({ store: false, transcription: { rateLimit: false, apiKeys: [KEY, OTHER] } }),
    startSandbox({
      store: false,
      transcription: {
        apiKeys: [KEY],
        maxUploadBytes: 1000,
        rateLimit: false,
        modelRateLimits: { tiny: { limit: 1, intervalMs: 60_000 } },
      },
    }),
    startSandbox({ store: false, transcription: { rateLimit: false, apiKeys: [KEY], maxAudioSeconds: 2 } }),
  ]);
  heldRequested = new Promise((resolve) => {
    hold = http.createServer((_req, res) => {
      releaseHeld = () => {
        if (!res.headersSent) res.writeHead(404).end('gone');
      };
      resolve();
    });
  });
  await new Promise<void>((resolve) => hold.listen(0, '127.0.0.1', resolve));
  speech = await readFile(await synthesizeSpeech('thank you for your help'));
  // The real job, before any bad request.
  beforeId = await submit(await upload(speech));
  foreignUploadUrl = await upload(speech, box, OTHER);
  heldId = await submit(`http://127.0.0.1:${(hold.address() as AddressInfo).port}/held.wav`);
  await heldRequested;
});

afterAll(async () => {
  releaseHeld();
  await Promise.all([box?.close(), small?.close(), short?.close()]);
  await new Promise<void>((resolve) => hold?.close(() => resolve()));
});

const T = '/v2/transcript';
const HTTP_ONLY = 'Transcript creation error, audio_url should start with http';
const CONFIDENCE = /content_safety_confidence must be an integer between 25 and 100/;
const LIMIT = /limit must be an integer between 1 and 200, got "/;
const ALLOWED = /Method not allowed/;
const TERMS = Array.from({ length: 10_000 }, (_, i) => `term ${i}`);
const hook = { webhook_url: 'https://example.com/hook' };

/** `POST /v2/transcript` bodies: [what, body (a string is sent as is, anything else as JSON), status, message]. */
const bodyCases: [string, unknown, number, string | RegExp][] = [
  ['bad JSON', '{"audio_url": }', 400, /not valid JSON/],
  ['JSON that is an array', [valid()], 400, /expected a JSON object/],
  ['JSON that is a string', '"https://example.com/a.wav"', 400, /expected a JSON object/],
  ['JSON that is a number', '42', 400, /expected a JSON object/],
  ['an empty body', '', 400, /body is empty/],
  ['no audio_url', { speech_models: MODELS }, 400, /audio_url is required/],
  ['audio_url ftp://', valid({ audio_url: 'ftp://example.com/a.wav' }), 400, HTTP_ONLY],
  ['audio_url a local path', valid({ audio_url: '/home/me/a.wav' }), 400, HTTP_ONLY],
  ['audio_url a number', valid({ audio_url: 7 }), 400, /audio_url must be a string/],
  ['no speech_models', { audio_url: 'https://example.com/a.wav' }, 400, /speech_models is required/],
  ['speech_models []', valid({ speech_models: [] }), 400, /speech_models must be a non-empty array/],
  ['speech_models [1, 2]', valid({ speech_models: [1, 2] }), 400, /speech_models must be a non-empty/],
  ['speech_models a string', valid({ speech_models: 'universal-2' }), 400, /speech_models must be/],
  ['punctuate "yes"', valid({ punctuate: 'yes' }), 400, /punctuate must be a boolean/],
  ['content_safety_confidence 10', valid({ content_safety_confidence: 10 }), 400, CONFIDENCE],
  ['content_safety_confidence 101', valid({ content_safety_confidence: 101 }), 400, CONFIDENCE],
  ['content_safety_confidence 50.5', valid({ content_safety_confidence: 50.5 }), 400, CONFIDENCE],
  ['audio_start_from -1', valid({ audio_start_from: -1 }), 400, /audio_start_from must be an integer of at/],
  ['speakers_expected "two"', valid({ speakers_expected: 'two' }), 400, /speakers_expected must be an int/],
  ['webhook_url not a URL', valid({ webhook_url: 'not a url' }), 400, /webhook_url must be an http\(s\) URL/],
  [
    'webhook_auth_header_name alone',
    valid({ ...hook, webhook_auth_header_name: 'X-Secret' }),
    400,
    /webhook_auth_header_name and webhook_auth_header_value must be given together/,
  ],
  [
    'webhook_auth_header_value alone',
    valid({ ...hook, webhook_auth_header_value: 's3cret' }),
    400,
    /webhook_auth_header_name and webhook_auth_header_value must be given together/,
  ],
  [
    'a 2 MB prompt',
    valid({ prompt: 'word '.repeat(400_000) }),
    413,
    'Request body larger than 1048576 bytes.',
  ],
  // The service takes up to 1,000 key terms; the emulator refuses more rather than silently ignoring them.
  [
    '10,000 keyterms_prompt terms',
    valid({ keyterms_prompt: TERMS }),
    400,
    'Invalid request body: keyterms_prompt can have at most 1000 terms, got 10000.',
  ],
];

/** Everything else: [method, path (`:id` is the completed job's id), status, message]. */
const routeCases: [string, string, number, string | RegExp][] = [
  ['GET', `${T}/${UNKNOWN_ID}`, 400, LOOKUP],
  ['GET', `${T}/not-a-uuid`, 400, LOOKUP],
  ['DELETE', `${T}/${UNKNOWN_ID}`, 400, LOOKUP],
  ['GET', `${T}/${UNKNOWN_ID}/sentences`, 400, LOOKUP],
  ['GET', `${T}/${UNKNOWN_ID}/srt`, 400, LOOKUP],
  ['PUT', T, 405, ALLOWED],
  ['PATCH', `${T}/:id`, 405, ALLOWED],
  ['GET', '/v2/upload', 405, ALLOWED],
  ['GET', '/v2/transcripts', 404, /Not found/],
  ['GET', `${T}/:id/summary`, 404, /Not found/],
  ['GET', `${T}?limit=0`, 400, LIMIT],
  ['GET', `${T}?limit=201`, 400, LIMIT],
  ['GET', `${T}?limit=abc`, 400, LIMIT],
  ['GET', `${T}?status=done`, 400, /status must be one of queued, processing, completed, error/],
  ['GET', `${T}?before_id=42`, 400, /before_id must be a transcript id/],
  ['GET', `${T}?created_on=yesterday`, 400, /created_on must be a date \(YYYY-MM-DD\)/],
  ['POST', '/v2/upload', 400, 'Upload error, the request body is empty: send the audio file as the body.'],
];

const authCases: [string, string | null][] = [
  ['no Authorization header', null],
  ['a wrong key', 'not-the-key'],
  ['Bearer <key> (the service takes the bare key)', `Bearer ${KEY}`],
];

describe('malformed requests get {"error": ...} with the right status', () => {
  it.each(bodyCases)('POST /v2/transcript with %s', async (_name, body, status, message) => {
    const payload = typeof body === 'string' ? body : JSON.stringify(body);
    expectError(await call(T, { method: 'POST', body: payload }), status, message);
  });

  it.each(routeCases)('%s %s → %i', async (method, path, status, message) => {
    const body = method === 'PUT' || method === 'PATCH' ? JSON.stringify(valid()) : undefined;
    expectError(await call(path.replace(':id', beforeId), { method, body }), status, message);
  });

  it("transcribing another project's upload → 403", async () => {
    expectError(await create(valid({ audio_url: foreignUploadUrl })), 403, 'Cannot access uploaded file');
  });

  it.each(authCases)('%s → 401', async (_name, key) => {
    for (const [method, path] of [
      ['GET', T],
      ['POST', T],
      ['GET', `${T}/${UNKNOWN_ID}`],
      ['POST', '/v2/upload'],
    ]) {
      const body = method === 'POST' ? '{}' : undefined;
      expectError(await call(path!, { method, key, body }), 401, UNAUTHORIZED);
    }
  });

  it('views of a transcript that has not finished → 400 naming its status', async () => {
    expect((await transcript(heldId)).status).toMatch(/^(queued|processing)$/);
    for (const view of ['sentences', 'paragraphs', 'srt', 'vtt', 'word-search?words=help']) {
      expectError(
        await call(`${T}/${heldId}/${view}`),
        400,
        /Transcript is not completed yet \(status: (queued|processing)\)/,
      );
    }
  });
});

describe('uploads: too large, truncated, rate limited', () => {
  it('an upload over maxUploadBytes → 413, declared or streamed chunked', async () => {
    const declared = await call('/v2/upload', { method: 'POST', body: Buffer.alloc(2000, 1), base: small });
    expectError(
      declared,
      413,
      'Upload error, the file is larger than the maximum upload size of 1000 bytes.',
    );
    // No Content-Length: the limit is found while streaming.
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${small.url}/v2/upload`, { method: 'POST', headers: { authorization: KEY } });
      req.on('response', async (res) =>
        resolve({ status: res.statusCode!, body: (await res.toArray()) + '' }),
      );
      req.on('error', reject);
      for (let i = 0; i < 3; i++) req.write(Buffer.alloc(600, 2));
      req.end();
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body)).toEqual({ error: expect.stringMatching(/upload size of 1000 bytes/) });
    expect((await upload(Buffer.alloc(1000, 3), small)).startsWith(`${small.url}/v2/upload/`)).toBe(true);
  });

  it('a truncated upload (Content-Length 100000, 10 bytes, socket destroyed) leaves the server answering', async () => {
    const head = `POST /v2/upload HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEY}\r\nContent-Length: 100000\r\n\r\n`;
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(new URL(box.url).port), '127.0.0.1', () =>
        socket.write(`${head}0123456789`, () => setTimeout(() => resolve(void socket.destroy()), 50)),
      );
      socket.on('error', reject);
    });
    await sleep(100);
    expectError(await call(`${T}/${UNKNOWN_ID}`), 400, LOOKUP);
    expect((await call(`${T}?limit=1`)).status).toBe(200);
  });

  it('a full rate window → 429 "Too Many Requests" with Retry-After', async () => {
    const first = await create({ speech_models: ['tiny'] }, small);
    expectError(first, 400, /audio_url is required/);
    const second = await create({ speech_models: ['tiny'] }, small);
    expectError(second, 429, 'Too Many Requests');
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('jobs that fail end in status "error" (HTTP 200), and others still finish', () => {
  const failed: Record<string, string> = {};

  it('non-audio, 0 s, too long and unreachable audio all end in error', { timeout: 120_000 }, async () => {
    failed.text = await submit(
      await upload(Buffer.from('<html><body>not audio at all</body></html>\n'.repeat(30))),
    );
    failed.empty = await submit(await upload(EMPTY_WAV));
    failed.unreachable = await submit('http://127.0.0.1:1/a.wav');
    const long = await readFile(
      await synthesizeSpeech(
        'the tracking number is seven eight nine and I was charged twice for the same order',
      ),
    );
    failed.long = await submit(await upload(long, short), short);
    releaseHeld();
    await Promise.all([box.transcription!.idle(), short.transcription!.idle()]);

    const error = async (id: string, base?: Sandbox<false>) => {
      const t = await transcript(id, base);
      expect(t.status, JSON.stringify(t).slice(0, 300)).toBe('error');
      expect(t.text).toBeNull();
      return t.error as string;
    };
    expect(await error(failed.text)).toMatch(/^File does not appear to contain audio\./);
    expect(await error(failed.empty)).toBe('Audio duration is too short.');
    expect(await error(failed.unreachable)).toMatch(
      /^Download error, unable to download http:\/\/127\.0\.0\.1:1\/a\.wav/,
    );
    expect(await error(failed.long, short)).toMatch(/exceeds the maximum of 2 seconds/);
    expect(await error(heldId)).toMatch(/^Download error, unable to download .*\(HTTP 404\)/);
  });

  it('views of a failed transcript → 400 naming the failure', async () => {
    expectError(
      await call(`${T}/${failed.empty}/paragraphs`),
      400,
      'Transcript has status error: Audio duration is too short.',
    );
    expectError(await call(`${T}/${heldId}/vtt`), 400, /Transcript has status error: Download error/);
  });

  it('the job submitted before the bad requests completed', async () => {
    const t = await transcript(beforeId);
    expect(t.status, t.error).toBe('completed');
    expect(t.words.length).toBeGreaterThan(0);
    expect(t.text.length).toBeGreaterThan(0);
  });

  it('bad view parameters on a completed transcript → 400', async () => {
    const view = (q: string) => call(`${T}/${beforeId}/${q}`);
    for (const [query, message] of [
      ['srt?chars_per_caption=0', /chars_per_caption must be a positive integer, got "0"/],
      ['vtt?chars_per_caption=x', /chars_per_caption must be a positive integer, got "x"/],
      ['word-search', /words is required/],
      ['word-search?words=%20', /words is required/],
      ['word-search?words=one+two+three+four+five+six', /at most 5 words: "one two three four five six"/],
      ['redacted-audio', /not requested with redact_pii_audio: true/],
    ] as const) {
      expectError(await view(query), 400, message);
    }
    expect((await view('word-search?words=help')).status).toBe(200);
  });

  it('a job submitted after all of it completes and is listed', { timeout: 60_000 }, async () => {
    const afterId = await submit(await upload(speech));
    await box.transcription!.idle();
    const t = await transcript(afterId);
    expect(t.status, t.error).toBe('completed');
    expect(t.text).toBe((await transcript(beforeId)).text);
    const list = await call(`${T}?limit=200`);
    expect(list.status).toBe(200);
    expect(list.json.transcripts.map((x: { id: string }) => x.id)).toContain(afterId);
  });
});
