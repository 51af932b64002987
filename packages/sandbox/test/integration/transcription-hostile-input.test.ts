/**
 * Hostile requests against the transcription emulator over real sockets: bodies that nest without end, bodies
 * that lie about their length or never end, ids of another project used as paging anchors, broken
 * percent-encoding, webhooks that could never be delivered. Each is refused with the service's `{"error": ...}`
 * before anything is created, and the emulator keeps answering.
 *
 * No speech engine is needed: every job here points at an address nothing listens on, so it ends in a
 * download error at once.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';

const KEY = 'hostile_key';
const OTHER = 'hostile_other_project';
const NOWHERE = 'http://127.0.0.1:1/audio.wav';
const MODELS = ['universal-2'];
const LIMIT = 1024 * 1024;

let box: Sandbox<false>;
let port: number;

beforeAll(async () => {
  box = await startSandbox({ store: false, transcription: { apiKeys: [KEY, OTHER], rateLimit: false } });
  port = Number(new URL(box.url).port);
});
afterAll(async () => {
  await box?.close();
});

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

async function call(
  path: string,
  init: { method?: string; body?: string; key?: string } = {},
): Promise<Answer> {
  const res = await fetch(`${box.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: init.key ?? KEY, 'content-type': 'application/json' },
    body: init.body,
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, text, json };
}

function expectError(res: Answer, status: number, message: string | RegExp) {
  const context = `HTTP ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, context).toBe(status);
  expect(res.headers.get('content-type'), context).toMatch(/^application\/json/);
  expect(Object.keys(res.json ?? {}), context).toEqual(['error']);
  if (typeof message === 'string') expect(res.json.error).toBe(message);
  else expect(res.json.error).toMatch(message);
}

const create = (params: object, key = KEY) =>
  call('/v2/transcript', { method: 'POST', body: JSON.stringify(params), key });

async function listIds(query = '', key = KEY): Promise<string[]> {
  const res = await call(`/v2/transcript?limit=200${query}`, { key });
  expect(res.status, res.text).toBe(200);
  return res.json.transcripts.map((t: { id: string }) => t.id);
}

/** Writes `head` and `body` on a raw socket and resolves with the first answer's head and body. */
function rawAnswer(head: string, body: string | Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let out = '';
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(head);
      socket.write(body);
    });
    socket.on('data', (chunk) => {
      out += chunk.toString('latin1');
      const end = out.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = Number(/content-length: (\d+)/i.exec(out.slice(0, end))?.[1] ?? 0);
      if (out.length - end - 4 < length) return;
      socket.destroy();
      resolve({ status: Number(out.slice(9, 12)), body: out.slice(end + 4, end + 4 + length) });
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`closed without an answer: ${JSON.stringify(out)}`)));
  });
}

describe('a JSON body nested 6,000 deep', () => {
  const deep = `{"audio_url":"${NOWHERE}","speech_models":["universal-2"],"x":${'['.repeat(6000)}${']'.repeat(6000)}}`;

  it('is a 400 {error} and creates no transcript', async () => {
    const before = await listIds();
    expectError(
      await call('/v2/transcript', { method: 'POST', body: deep }),
      400,
      'Invalid request body: JSON nested deeper than 64 levels.',
    );
    expect(await listIds()).toEqual(before);
  });

  it('brackets inside strings do not count, and 64 levels are taken', async () => {
    const res = await create({
      audio_url: NOWHERE,
      speech_models: MODELS,
      note: '['.repeat(10_000),
      nested: JSON.parse(`${'['.repeat(63)}${']'.repeat(63)}`),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.note).toBe('['.repeat(10_000));
    expectError(await call(`/v2/transcript/${res.json.id}`, { method: 'DELETE', key: OTHER }), 400, /lookup/);
    expect((await call(`/v2/transcript/${res.json.id}`, { method: 'DELETE' })).status).toBe(200);
  });
});

describe('bodies over the 1 MiB limit', () => {
  const head = (length: string) =>
    `POST /v2/transcript HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEY}\r\nContent-Type: application/json\r\n${length}\r\n`;

  it('a declared Content-Length of 48 MiB with 4 KB sent is answered 413 at once', async () => {
    const answer = await rawAnswer(head(`Content-Length: ${48 * LIMIT}\r\n`), Buffer.alloc(4096, 0x20));
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: `Request body larger than ${LIMIT} bytes.` });
  });

  it('a chunked body is answered 413 once it passes the limit, while the client is still sending', async () => {
    // 2 MiB in one chunk and no last chunk: the answer can only come from reading while it streams.
    const answer = await rawAnswer(
      head('Transfer-Encoding: chunked\r\n'),
      `${(2 * LIMIT).toString(16)}\r\n${' '.repeat(2 * LIMIT)}\r\n`,
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: `Request body larger than ${LIMIT} bytes.` });
  });

  it('a declared upload over maxUploadBytes is answered 413 before its body', async () => {
    const small = await startSandbox({
      store: false,
      transcription: { apiKeys: [KEY], maxUploadBytes: 1000 },
    });
    try {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        let out = '';
        const socket = net.connect(Number(new URL(small.url).port), '127.0.0.1', () =>
          socket.write(
            `POST /v2/upload HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEY}\r\nContent-Length: ${48 * LIMIT}\r\n\r\n`,
          ),
        );
        socket.on('data', (c) => {
          out += c.toString();
          if (out.endsWith('}')) {
            socket.destroy();
            resolve({ status: Number(out.slice(9, 12)), body: out.slice(out.indexOf('\r\n\r\n') + 4) });
          }
        });
        socket.on('error', reject);
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).error).toMatch(/maximum upload size of 1000 bytes/);
    } finally {
      await small.close();
    }
  });

  it('the model of a body read once still picks its rate window', async () => {
    const limited = await startSandbox({
      store: false,
      transcription: {
        apiKeys: [KEY],
        rateLimit: false,
        modelRateLimits: { tiny: { limit: 1, intervalMs: 60_000 } },
      },
    });
    try {
      const post = () =>
        fetch(`${limited.url}/v2/transcript`, {
          method: 'POST',
          headers: { authorization: KEY },
          body: JSON.stringify({ audio_url: NOWHERE, speech_models: ['tiny'] }),
        });
      expect((await post()).status).toBe(200);
      const second = await post();
      expect(second.status).toBe(429);
      expect(await second.json()).toEqual({ error: 'Too Many Requests' });
      await limited.transcription!.idle();
    } finally {
      await limited.close();
    }
  });
});

describe("another project's transcript id as a paging anchor", () => {
  it('is unknown in before_id and after_id: an empty page, as an id that does not exist', async () => {
    const mine: string[] = [];
    for (let i = 0; i < 3; i++)
      mine.push((await create({ audio_url: NOWHERE, speech_models: MODELS })).json.id);
    const theirs = (await create({ audio_url: NOWHERE, speech_models: MODELS }, OTHER)).json.id as string;
    const unknown = '5b1cbd0e-6a4d-4f57-9b3b-2f0a5c1d9e77';
    for (const name of ['before_id', 'after_id']) {
      const viaTheirs = await call(`/v2/transcript?${name}=${theirs}`);
      const viaUnknown = await call(`/v2/transcript?${name}=${unknown}`);
      expect(viaTheirs.json.transcripts, name).toEqual([]);
      expect(viaTheirs.json.page_details.result_count).toBe(viaUnknown.json.page_details.result_count);
      expect(viaTheirs.json.page_details.prev_url).toBe(viaUnknown.json.page_details.prev_url);
      expect(viaTheirs.json.page_details.next_url).toBe(viaUnknown.json.page_details.next_url);
    }
    // Their own ids still page.
    expect(await listIds(`&before_id=${mine[2]}`)).toEqual(expect.arrayContaining([mine[1], mine[0]]));
    await box.transcription!.idle();
  });
});

describe('malformed percent-encoding in a /v2 path', () => {
  it.each([
    ['GET', '/v2/transcript/%E0%A4%A', 400, 'Transcript lookup error, transcript id not found'],
    ['DELETE', '/v2/transcript/%E0%A4%A', 400, 'Transcript lookup error, transcript id not found'],
    ['GET', '/v2/transcript/%zz/sentences', 400, 'Transcript lookup error, transcript id not found'],
    ['GET', '/v2/%E0%A4%A', 404, 'Not found'],
    ['GET', '/v2/transcript/x/%', 404, 'Not found'],
  ])('%s %s → %i {error}', async (method, path, status, message) => {
    expectError(await call(path, { method }), status, message);
  });
});

describe('webhooks that could never be delivered are refused', () => {
  const hook = (extra: object) => ({ audio_url: NOWHERE, speech_models: MODELS, ...extra });
  it.each([
    ['webhook_url "http://" (no host)', { webhook_url: 'http://' }, /webhook_url must be an http\(s\) URL/],
    [
      'webhook_url "https://:443/x"',
      { webhook_url: 'https://:443/x' },
      /webhook_url must be an http\(s\) URL/,
    ],
    [
      'an empty header name',
      { webhook_url: 'https://example.com/h', webhook_auth_header_name: '', webhook_auth_header_value: 'v' },
      /webhook_auth_header_name must be an HTTP header name/,
    ],
    [
      'a header name with CR/LF',
      {
        webhook_url: 'https://example.com/h',
        webhook_auth_header_name: 'X-A\r\nX-Injected: 1',
        webhook_auth_header_value: 'v',
      },
      /webhook_auth_header_name must be an HTTP header name/,
    ],
    [
      'a header value with LF',
      {
        webhook_url: 'https://example.com/h',
        webhook_auth_header_name: 'X-A',
        webhook_auth_header_value: 'a\nb',
      },
      /webhook_auth_header_value must be a valid HTTP header value/,
    ],
  ])('%s → 400', async (_what, extra, message) => {
    const before = await listIds();
    const res = await create(hook(extra));
    expectError(res, 400, message);
    expect(res.text).not.toContain('X-Injected');
    expect(await listIds()).toEqual(before);
  });
});
