/**
 * The transcription emulator guards its own routes: hosted unmounted (`createTranscriptionEmulator()` on a
 * bare node:http server, without the sandbox server's last guard), requests that used to throw out of it
 * (a path with broken percent-encoding, a body that cannot be serialised again) are answered with the
 * service's 500 or 4xx `{"error": ...}`, never the host's plain-text 500, and other clients and jobs go on.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTranscriptionEmulator, type TranscriptionEmulator } from '../../src/index.js';

const KEY = 'guard_key';
const headers = { authorization: KEY, 'content-type': 'application/json' };
let emulator: TranscriptionEmulator;
let server: Server;
let url: string;

beforeAll(async () => {
  emulator = await createTranscriptionEmulator({
    apiKeys: [KEY],
    rateLimit: false,
    // An engine of our own: the jobs here are about the routes, not recognition.
    engine: {
      name: 'fixed',
      transcribe: async () => ({
        words: [{ text: 'Hello.', start: 0, end: 400, confidence: 0.9 }],
        text: 'Hello.',
        audio_duration: 1,
      }),
    },
  });
  server = createAdaptorServer({ fetch: emulator.fetch as never }) as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  emulator.setHomeUrl(url);
});
afterAll(async () => {
  await emulator?.close();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

async function expectJsonError(res: Response, status: number) {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get('content-type'), text).toMatch(/^application\/json/);
  expect(Object.keys(JSON.parse(text)), text).toEqual(['error']);
}

it('requests that threw out of the emulator are answered {error}, and a job still completes', async () => {
  const upload = await fetch(`${url}/v2/upload`, { method: 'POST', headers, body: 'RIFF-ish bytes' });
  const { upload_url } = (await upload.json()) as { upload_url: string };

  for (const path of ['/v2/transcript/%E0%A4%A', '/v2/%', '/v2/transcript/%zz/srt']) {
    await expectJsonError(
      await fetch(`${url}${path}`, { headers }),
      path.startsWith('/v2/transcript/') ? 400 : 404,
    );
  }
  const deep = `{"audio_url":"${upload_url}","speech_models":["u"],"x":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
  await expectJsonError(await fetch(`${url}/v2/transcript`, { method: 'POST', headers, body: deep }), 400);

  const created = await fetch(`${url}/v2/transcript`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ audio_url: upload_url, speech_models: ['universal-2'] }),
  });
  const { id } = (await created.json()) as { id: string };
  await emulator.handle.idle();
  const t = (await (await fetch(`${url}/v2/transcript/${id}`, { headers })).json()) as Record<
    string,
    unknown
  >;
  expect(t.status, String(t.error)).toBe('completed');
  expect(t.text).toBe('Hello.');
});

it('a route that fails inside answers 500 {error} with no cause in it, and the next request is served', async () => {
  // A home URL that is no URL makes the list's paging links fail to build: a failure inside a route.
  emulator.setHomeUrl('not a url');
  try {
    const res = await fetch(`${url}/v2/transcript`, { headers });
    const body = await res.clone().text();
    await expectJsonError(res, 500);
    expect(JSON.parse(body).error).toBe('Server error, developers have been alerted.');
  } finally {
    emulator.setHomeUrl(url);
  }
  expect((await fetch(`${url}/v2/transcript`, { headers })).status).toBe(200);
});
