import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { synthesizeSpeech } from '@x/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APIError,
  type Progress,
  streamBody,
  type TranscriptionClient,
  ValidationError,
} from '../../src/index.js';
import { clientFor, sandbox } from '../helpers/sandbox.js';

let box: Awaited<ReturnType<typeof sandbox>>;
let client: TranscriptionClient;
let speech: string;
let bytes: Buffer;

beforeAll(async () => {
  box = await sandbox({ maxUploadBytes: 2_000_000 });
  client = clientFor(box);
  speech = await synthesizeSpeech('the package arrived broken');
  bytes = await readFile(speech);
});
afterAll(() => box?.close());

/** Every form of input is uploaded whole and transcribes to the same words. */
const inputs: [string, () => Parameters<TranscriptionClient['files']['upload']>[0]][] = [
  ['a path', () => speech],
  ['a Node Readable', () => createReadStream(speech)],
  ['a web ReadableStream', () => Readable.toWeb(createReadStream(speech)) as ReadableStream<Uint8Array>],
  ['bytes', () => new Uint8Array(bytes)],
  ['a Blob', () => new Blob([new Uint8Array(bytes)])],
  ['streamBody(() => stream)', () => streamBody(() => createReadStream(speech), { length: bytes.length })],
];

describe('files.upload', () => {
  it.each(inputs)('uploads %s', async (_name, input) => {
    const { upload_url } = await client.files.upload(input());
    expect(upload_url).toMatch(new RegExp(`^${box.url}/v2/upload/[0-9a-f-]{36}$`));
    const t = await client.transcripts.transcribe({ audio_url: upload_url, speech_models: ['universal-2'] });
    expect(t.text?.toLowerCase()).toContain('package');
  });

  it('reports progress up to the file size', async () => {
    const seen: Progress[] = [];
    await client.files.upload(speech, { onProgress: (p) => seen.push(p) });
    const size = (await stat(speech)).size;
    expect(seen.at(-1)).toEqual({ loaded: size, total: size });
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.loaded).toBeGreaterThanOrEqual(seen[i - 1]!.loaded);
  });

  it('a file over the service limit is a 413 APIError', async () => {
    const big = new Uint8Array(3_000_000);
    const error = await client.files.upload(big).catch((e: any) => e);
    expect(error).toBeInstanceOf(APIError);
    expect(error.status).toBe(413);
    expect(error.message).toMatch(/maximum upload size/);
  });

  it('a stream without a length that runs over the limit is refused too', async () => {
    async function* chunks() {
      for (let i = 0; i < 40; i++) yield new Uint8Array(100_000);
    }
    const error = await client.files.upload(Readable.from(chunks())).catch((e: any) => e);
    expect(error).toBeInstanceOf(APIError);
    expect(error.status).toBe(413);
  });

  it('an aborted upload stops and leaves no upload behind', async () => {
    const controller = new AbortController();
    async function* slow() {
      yield new Uint8Array(1000);
      controller.abort();
      await new Promise((r) => setTimeout(r, 50));
      yield new Uint8Array(1000);
    }
    await expect(client.files.upload(Readable.from(slow()), { signal: controller.signal })).rejects.toThrow();
  });

  it('refuses what it cannot upload before sending anything', async () => {
    const before = box.transcription.stats().requests;
    await expect(client.files.upload('')).rejects.toBeInstanceOf(ValidationError);
    await expect(client.files.upload(new Uint8Array(0))).rejects.toThrow(/empty/);
    await expect(client.files.upload('https://example.com/a.mp3')).rejects.toThrow(/audio_url/);
    await expect(client.files.upload(42 as never)).rejects.toThrow(/must be a file path/);
    expect(box.transcription.stats().requests).toBe(before);
  });

  it('an upload made with another key cannot be transcribed (403)', async () => {
    const other = await sandbox({ apiKeys: ['key-a', 'key-b'] });
    try {
      const a = clientFor({ url: other.url, transcription: { apiKey: 'key-a' } });
      const b = clientFor({ url: other.url, transcription: { apiKey: 'key-b' } });
      const { upload_url } = await a.files.upload(bytes);
      const error = await b.transcripts
        .submit({ audio_url: upload_url, speech_models: ['universal-2'] })
        .catch((e: any) => e);
      expect(error.status).toBe(403);
      expect(error.message).toMatch(/Cannot access uploaded file/);
    } finally {
      await other.close();
    }
  });
});
