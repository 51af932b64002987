import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BaseClient,
  type ClientOptions,
  fileBody,
  InternalServerError,
  type Progress,
  type RequestOptions,
  type RequestSpec,
  streamBody,
  TimeoutError,
  ValidationError,
} from '../../src/index.js';
import { type BodyServer, type Received, sha256, startBodyServer } from '../helpers/body-server.js';

class TestClient extends BaseClient {
  constructor(options: Omit<ClientOptions, 'baseURL'> & { baseURL: string }) {
    super({ rateLimit: false, ...options }, { packageName: '@x/test', packageVersion: '1.0.0' });
  }
  send(method: RequestSpec['method'], path: string, body: unknown, options?: RequestOptions) {
    return this.request<Received>({ method, path, body, options });
  }
}

/** `count` chunks of `size` bytes (byte value = chunk index), generated as they are read. */
async function* chunks(count: number, size: number, pauseMs = 0): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < count; i++) {
    if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    yield new Uint8Array(size).fill(i % 256);
  }
}
function expected(count: number, size: number): string {
  const all = new Uint8Array(count * size);
  for (let i = 0; i < count; i++) all.fill(i % 256, i * size, (i + 1) * size);
  return sha256(all);
}

let server: BodyServer;
let client: TestClient;
let dir: string;
beforeAll(async () => {
  server = await startBodyServer();
  client = new TestClient({ baseURL: server.url });
  dir = mkdtempSync(join(tmpdir(), 'x-core-bodies-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('each body kind arrives byte for byte', () => {
  it('a plain object is sent as JSON', async () => {
    const seen = await client.send('POST', '/echo', { name: 'ünïcode', n: [1, 2] });
    expect(seen.contentType).toBe('application/json');
    expect(JSON.parse(seen.text!)).toEqual({ name: 'ünïcode', n: [1, 2] });
  });

  it('strings, bytes and ArrayBuffers go as they are', async () => {
    expect((await client.send('POST', '/echo', 'plain text')).text).toBe('plain text');
    const bytes = new Uint8Array([0, 1, 2, 254, 255]);
    expect((await client.send('POST', '/echo', bytes)).sha256).toBe(sha256(bytes));
    expect((await client.send('POST', '/echo', bytes.buffer)).sha256).toBe(sha256(bytes));
  });

  it('a Blob keeps its type; FormData and URLSearchParams get their form encodings', async () => {
    const blob = new Blob(['<a/>'], { type: 'application/xml' });
    const seenBlob = await client.send('PUT', '/echo', blob);
    expect(seenBlob).toMatchObject({ contentType: 'application/xml', text: '<a/>' });

    const form = new FormData();
    form.set('field', 'value');
    form.set('file', new Blob(['file body']), 'a.txt');
    const seenForm = await client.send('POST', '/echo', form);
    expect(seenForm.contentType).toMatch(/^multipart\/form-data; ?boundary=/);
    const boundary = seenForm.contentType!.split('boundary=')[1]!;
    expect(seenForm.text).toContain(`--${boundary}`);
    expect(seenForm.text).toContain('file body');

    const seenParams = await client.send('POST', '/echo', new URLSearchParams({ a: '1', b: 'x y' }));
    expect(seenParams).toMatchObject({
      contentType: 'application/x-www-form-urlencoded;charset=UTF-8',
      text: 'a=1&b=x+y',
    });
  });

  it('a web ReadableStream, a Node Readable and an async generator stream chunked', async () => {
    const web = Readable.toWeb(Readable.from(chunks(8, 10_000))) as ReadableStream<Uint8Array>;
    const node = Readable.from(chunks(8, 10_000));
    for (const body of [web, node, chunks(8, 10_000)]) {
      const seen = await client.send('POST', '/echo', body);
      expect(seen).toMatchObject({ length: 80_000, sha256: expected(8, 10_000), chunked: true });
    }
  });

  it('streamBody with a length sends Content-Length; fileBody sends the file size', async () => {
    const seen = await client.send(
      'POST',
      '/echo',
      streamBody(() => chunks(4, 1000), { length: 4000 }),
    );
    expect(seen).toMatchObject({ length: 4000, contentLength: '4000', chunked: false });

    const path = join(dir, 'audio.bin');
    const data = new Uint8Array(3_000_001).map((_, i) => (i * 7) % 251);
    writeFileSync(path, data);
    const fromFile = await client.send('POST', '/echo', fileBody(path, { contentType: 'audio/wav' }));
    expect(fromFile).toMatchObject({
      length: data.length,
      sha256: sha256(data),
      contentLength: String(data.length),
      contentType: 'audio/wav',
    });
  });
});

describe('retries with stream bodies', () => {
  it('a factory stream is opened again for the retry and arrives whole both times', async () => {
    let opened = 0;
    const body = streamBody(() => {
      opened++;
      return chunks(16, 4096);
    });
    const seen = await client.send('PUT', '/fail-first/factory', body);
    expect(opened).toBe(2);
    const attempts = server.received.filter((r) => r.path === '/fail-first/factory');
    expect(attempts).toHaveLength(2);
    for (const attempt of [...attempts, seen]) expect(attempt.sha256).toBe(expected(16, 4096));
  });

  it('a file body is reopened for the retry', async () => {
    const path = join(dir, 'retry.bin');
    writeFileSync(path, 'retry me');
    const seen = await client.send('PUT', '/fail-first/file', fileBody(path));
    expect(seen.text).toBe('retry me');
    expect(server.received.filter((r) => r.path === '/fail-first/file')).toHaveLength(2);
  });

  it('a one-shot stream is not retried, and the error says why and what to pass instead', async () => {
    const error = await client
      .send('PUT', '/fail-first/one-shot', Readable.from(chunks(4, 100)))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as Error).message).toMatch(
      /not retried: the body was a one-shot stream; pass streamBody\(\(\) => stream\)/,
    );
    expect(server.received.filter((r) => r.path === '/fail-first/one-shot')).toHaveLength(1);
  });
});

describe('progress and timeouts of long transfers', () => {
  it('reports upload progress from 0 to the total, never going backwards', async () => {
    const events: Progress[] = [];
    const total = 4 * 1024 * 1024;
    await client.send(
      'POST',
      '/echo',
      streamBody(() => chunks(64, 65_536), { length: total }),
      {
        onProgress: (p) => events.push(p),
      },
    );
    expect(events[0]).toEqual({ loaded: 0, total });
    expect(events.at(-1)).toEqual({ loaded: total, total });
    for (let i = 1; i < events.length; i++)
      expect(events[i]!.loaded).toBeGreaterThanOrEqual(events[i - 1]!.loaded);
  });

  it('a Blob with onProgress streams with its size as the total', async () => {
    const events: Progress[] = [];
    const blob = new Blob([new Uint8Array(200_000).fill(3)]);
    const seen = await client.send('POST', '/echo', blob, { onProgress: (p) => events.push(p) });
    expect(seen).toMatchObject({ length: 200_000, contentLength: '200000' });
    expect(events.at(-1)).toEqual({ loaded: 200_000, total: 200_000 });
  });

  it('an upload the server stops reading fails with the idle timeout, not the attempt timeout', async () => {
    const slow = new TestClient({ baseURL: server.url, idleTimeout: 300, timeout: 600_000, maxRetries: 0 });
    const error = await slow
      .send(
        'POST',
        '/never-read',
        streamBody(() => chunks(2048, 65_536)),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ timeout: 'idle' });
    expect((error as Error).message).toMatch(
      /No bytes moved for 300 ms \(idle timeout, attempt 1; a POST that timed out is not repeated without an idempotency key\): POST http/,
    );
  });

  it('an upload that keeps moving outlives the per-attempt timeout, which starts when the upload ends', async () => {
    // 12 chunks 250 ms apart: about 3 s of uploading against a 2 s per-attempt timeout.
    const patient = new TestClient({
      baseURL: server.url,
      timeout: 2000,
      idleTimeout: 60_000,
      maxRetries: 0,
    });
    const seen = await patient.send(
      'POST',
      '/echo',
      streamBody(() => chunks(12, 1000, 250)),
    );
    expect(seen).toMatchObject({ length: 12_000, sha256: expected(12, 1000) });
  });
});

describe('responses', () => {
  it('responseType stream hands the body over unread (downloads)', async () => {
    const stream = await client.request<ReadableStream<Uint8Array>>({
      method: 'GET',
      path: '/download',
      query: { bytes: 20_000_000 },
      responseType: 'stream',
    });
    let total = 0;
    const reader = stream.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read())
      total += next.value.byteLength;
    expect(total).toBe(20_000_000);
  });

  it('a huge error body is cut at maxErrorBodyBytes and kept out of the message', async () => {
    const error = (await client
      .send('GET', '/huge-error?bytes=5000000', undefined, { maxRetries: 0 })
      .catch((e: unknown) => e)) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.status).toBe(500);
    expect(error.message.length).toBeLessThan(300);
    expect(error.message).toContain('(error body cut at 65536 bytes)');
    expect(typeof error.body === 'string' && error.body.length).toBe(65_536);
  });

  it('an error message under the cap but long is clipped in the message, whole in the body', async () => {
    const small = new TestClient({ baseURL: server.url, maxErrorBodyBytes: 1_000_000, maxRetries: 0 });
    const error = (await small
      .request({ method: 'GET', path: '/huge-error', query: { bytes: 20_000 } })
      .catch((e: unknown) => e)) as InternalServerError;
    expect(error.code).toBe('boom');
    expect(error.message).toContain('… (18000 more characters)');
    expect(error.message.length).toBeLessThan(2200);
    expect((error.body as { message: string }).message).toHaveLength(20_000);
  });
});

describe('a body JSON cannot encode', () => {
  it('is refused as bad input naming the field, before anything is sent', async () => {
    const before = server.received.length;
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    for (const body of [{ meta_data: [{ key: 'n', value: 10n }] }, cyclic]) {
      const error = await client.send('POST', '/echo', body).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues[0]?.path).toBe('body');
      expect((error as ValidationError).message).toMatch(/cannot be encoded as JSON: .*(BigInt|circular)/);
    }
    expect(server.received.length).toBe(before);
  });
});
