/**
 * The webhook auth header reaches a real receiver under any valid name, including names that are special on
 * a plain JavaScript object (`__proto__`, `constructor`, `toString`).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';

const KEY = 'webhook_headers_key';
let box: Sandbox<false>;
let receiver: Server;
let receiverUrl: string;
/** Each delivery's headers as sent (raw: a parsed headers object is itself a plain object). */
const received: [string, string][][] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const raw = req.rawHeaders;
    received.push(
      raw.flatMap((name, i) => (i % 2 === 0 ? [[name.toLowerCase(), raw[i + 1]!] as [string, string]] : [])),
    );
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  box = await startSandbox({ store: false, transcription: { apiKeys: [KEY], rateLimit: false } });
});
afterAll(async () => {
  await box?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

it.each(['__proto__', 'constructor', 'toString', 'X-Hook-Secret'])(
  'a webhook auth header named %s arrives at the receiver',
  async (name) => {
    received.length = 0;
    const res = await fetch(`${box.url}/v2/transcript`, {
      method: 'POST',
      headers: { authorization: KEY, 'content-type': 'application/json' },
      body: JSON.stringify({
        // Nothing listens there: the job ends in a download error at once, and the webhook follows.
        audio_url: 'http://127.0.0.1:1/audio.wav',
        speech_models: ['universal-2'],
        webhook_url: receiverUrl,
        webhook_auth_header_name: name,
        webhook_auth_header_value: 'secret-1',
      }),
    });
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: string };
    await box.transcription!.idle();
    expect(received).toHaveLength(1);
    expect(received[0]).toContainEqual([name.toLowerCase(), 'secret-1']);
    expect(received[0]).toContainEqual(['content-type', 'application/json']);
    const t = await (
      await fetch(`${box.url}/v2/transcript/${id}`, { headers: { authorization: KEY } })
    ).json();
    expect(t.webhook_status_code).toBe(200);
  },
);
