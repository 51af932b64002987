import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BaseClient,
  type ClientOptions,
  ConnectionError,
  FileError,
  fileBody,
  type RequestOptions,
  streamBody,
  ValidationError,
  XError,
} from '../../src/index.js';
import { useFaultServer } from '../helpers/fault-server.js';

/**
 * The Node upload path (node:http, not fetch) against a real server: every failure, on the file, the
 * request, the response or the source stream, rejects the call; none reaches the process as an unhandled
 * 'error' event (vitest fails the run on one).
 */
class UploadClient extends BaseClient {
  constructor(options: Omit<ClientOptions, 'baseURL'> & { baseURL: string }) {
    super(
      { rateLimit: false, maxRetries: 0, ...options },
      { packageName: '@x/test', packageVersion: '1.0.0' },
    );
  }
  upload(body: unknown, options?: RequestOptions) {
    return this.request({ method: 'POST', path: '/upload', body, options });
  }
}

const server = useFaultServer();
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'x-core-transfer-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function* slowChunks(count: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < count; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    yield new Uint8Array(64 * 1024).fill(i);
  }
}

describe('a file body that cannot be read', () => {
  it('a missing file is a FileError naming the path, and no request is sent', async () => {
    const client = new UploadClient({ baseURL: server.url });
    const missing = join(dir, 'missing.wav');
    const error = await client.upload(fileBody(missing)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileError);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toBeInstanceOf(XError);
    const fileError = error as FileError;
    expect(fileError.path).toBe(missing);
    expect(fileError.code).toBe('ENOENT');
    expect(fileError.message).toContain(missing);
    expect(fileError.message).toContain('no such file');
    expect(server.requests).toHaveLength(0);
  });

  it('a relative missing path (./missing.wav) is refused the same way', async () => {
    const client = new UploadClient({ baseURL: server.url });
    await expect(client.upload(fileBody('./missing.wav'))).rejects.toThrow(/\.\/missing\.wav.*no such file/);
    expect(server.requests).toHaveLength(0);
  });

  it('a directory is refused before sending, not streamed as an EISDIR mid-request', async () => {
    const client = new UploadClient({ baseURL: server.url });
    const error = await client.upload(fileBody(dir)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileError);
    expect((error as FileError).code).toBe('EISDIR');
    expect(server.requests).toHaveLength(0);
  });

  it('an existing file still uploads, and a later missing one does not disturb the client', async () => {
    const client = new UploadClient({ baseURL: server.url });
    const path = join(dir, 'ok.bin');
    writeFileSync(path, 'hello');
    await expect(client.upload(fileBody(join(dir, 'nope')))).rejects.toBeInstanceOf(FileError);
    await expect(client.upload(fileBody(path))).resolves.toEqual({ ok: true });
    expect(server.requests.map((r) => r.body)).toEqual(['hello']);
  });
});

describe('failures during a streamed upload reject the call', () => {
  it('an onProgress that throws rejects with its own error, not an unhandled rejection', async () => {
    const client = new UploadClient({ baseURL: server.url });
    const oops = new Error('progress handler bug');
    const call = client.upload(
      streamBody(() => slowChunks(2)),
      {
        onProgress: () => {
          throw oops;
        },
      },
    );
    await expect(call).rejects.toBe(oops);
  });

  it('the server resetting the socket is a ConnectionError', async () => {
    const client = new UploadClient({ baseURL: server.url });
    server.replies.push('reset');
    await expect(client.upload(streamBody(() => slowChunks(4)))).rejects.toBeInstanceOf(ConnectionError);
  });

  it('a response cut off mid-body is a ConnectionError', async () => {
    const client = new UploadClient({ baseURL: server.url });
    server.replies.push((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"message":"par');
      setTimeout(() => res.socket?.destroy(), 10);
    });
    await expect(client.upload(streamBody(() => slowChunks(1)))).rejects.toBeInstanceOf(ConnectionError);
  });

  it('a source stream that fails mid-upload rejects with a ConnectionError carrying its error', async () => {
    const client = new UploadClient({ baseURL: server.url });
    const broken = new Error('disk went away');
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield new Uint8Array(10);
      throw broken;
    }
    const error = await client.upload(streamBody(() => failing())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).cause).toBe(broken);
  });
});
