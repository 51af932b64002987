import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileError, type TranscriptionClient, ValidationError } from '../../src/index.js';
import { clientFor, sandbox } from '../helpers/sandbox.js';

let box: Awaited<ReturnType<typeof sandbox>>;
let client: TranscriptionClient;
let dir: string;
/** Uncaught exceptions seen while these tests ran: a crash of the process before the fix. */
const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);

beforeAll(async () => {
  box = await sandbox();
  client = clientFor(box);
  dir = await mkdtemp(join(tmpdir(), 'x-transcription-'));
  process.prependListener('uncaughtException', onUncaught);
});
afterAll(async () => {
  process.removeListener('uncaughtException', onUncaught);
  await box?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A normal request after the failure: the client, the server and the process still work. */
async function stillWorks(): Promise<void> {
  const { upload_url } = await client.files.upload(new Uint8Array([1, 2, 3, 4]));
  expect(upload_url).toMatch(/\/v2\/upload\//);
  // Any stray 'error' event of a read stream fires within these turns of the event loop.
  await new Promise((resolve) => setImmediate(resolve));
  expect(uncaught).toEqual([]);
}

describe('a local path that cannot be read', () => {
  it('files.upload rejects with a typed error naming the path, before any request', async () => {
    const path = join(dir, 'missing.wav');
    const before = box.transcription.stats().requests;
    const error = await client.files.upload(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileError);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as FileError).path).toBe(path);
    expect((error as Error).message).toContain(path);
    expect(box.transcription.stats().requests).toBe(before);
    await stillWorks();
  });

  it('a relative path too, as the README writes it', async () => {
    const before = box.transcription.stats().requests;
    await expect(client.files.upload('./missing.wav')).rejects.toThrow(/missing\.wav/);
    expect(box.transcription.stats().requests).toBe(before);
    await stillWorks();
  });

  it('transcripts.transcribe({ audio }) rejects the same way, and frees its job slot', async () => {
    const narrow = client.withOptions({ maxConcurrentJobs: 1 });
    const path = join(dir, 'missing.wav');
    const before = box.transcription.stats().requests;
    for (let i = 0; i < 3; i++) {
      const error = await narrow.transcripts
        .transcribe({ audio: path, speech_models: ['universal-2'] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FileError);
      expect((error as Error).message).toContain(path);
    }
    expect(box.transcription.stats().requests).toBe(before);
    await stillWorks();
  });

  it('a file: URL given as audio says to pass its path, before any request', async () => {
    const before = box.transcription.stats().requests;
    const url = `file://${join(dir, 'call.wav')}`;
    await expect(client.files.upload(url)).rejects.toThrow(/file: URL; pass the file path/);
    await expect(
      client.transcripts.transcribe({ audio: url, speech_models: ['universal-2'] }),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(box.transcription.stats().requests).toBe(before);
  });

  it('a directory is a FileError too', async () => {
    const error = await client.files.upload(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileError);
    await stillWorks();
  });
});
