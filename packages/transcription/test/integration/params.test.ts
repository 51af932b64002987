import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TranscriptionClient, type TranscriptParams, ValidationError } from '../../src/index.js';
import { clientFor, sandbox } from '../helpers/sandbox.js';

let box: Awaited<ReturnType<typeof sandbox>>;
let client: TranscriptionClient;

beforeAll(async () => {
  box = await sandbox();
  client = clientFor(box);
});
afterAll(() => box?.close());

const base = { audio_url: 'https://example.com/call.mp3', speech_models: ['universal-2'] };

/** The submit's error, asserting that the sandbox saw no request for it. */
async function refused(params: Record<string, unknown>): Promise<ValidationError> {
  const before = box.transcription.stats().requests;
  const error = await client.transcripts.submit(params as TranscriptParams).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ValidationError);
  expect(box.transcription.stats().requests).toBe(before);
  return error as ValidationError;
}

function issue(error: ValidationError, path: string): string {
  const found = error.issues.find((i) => i.path === path);
  expect(found, `an issue on ${path} in ${error.message}`).toBeDefined();
  return found!.message;
}

describe('speech_models diagnostics', () => {
  it('a missing speech_models says it is required and shows an example', async () => {
    const { speech_models: _, ...params } = base;
    const message = issue(await refused(params), 'speech_models');
    expect(message).toMatch(/is required/);
    expect(message).toContain('["assemblyai-stt-3-7", "universal-2"]');
    expect(message).not.toMatch(/^expected array$/);
  });

  it('the old speech_model gets a did-you-mean that explains the rename', async () => {
    const { speech_models: _, ...params } = base;
    const error = await refused({ ...params, speech_model: 'best' });
    const message = issue(error, 'speech_model');
    expect(message).toMatch(/renamed to speech_models/);
    expect(message).toContain('did you mean speech_models: ["best"]');
  });

  it('an empty list or a bare string say what the list is', async () => {
    expect(issue(await refused({ ...base, speech_models: [] }), 'speech_models')).toMatch(
      /at least one model/,
    );
    expect(issue(await refused({ ...base, speech_models: 'universal-2' }), 'speech_models')).toMatch(
      /array of model ids in priority order/,
    );
  });

  it('speech_model: null (as a transcript echoes it) is still accepted', async () => {
    const t = await client.transcripts.submit({ ...base, speech_model: null });
    expect(t.status).toBe('queued');
  });
});

describe('webhook and audio parameters are refused before sending', () => {
  it.each(['http://', 'http:hook.example', 'http:///hook', 'ftp://example.com/h', 'https://exa mple.com/h'])(
    'webhook_url %j',
    async (webhook_url) => {
      expect(issue(await refused({ ...base, webhook_url }), 'webhook_url')).toMatch(
        /absolute http\(s\) URL with a host/,
      );
    },
  );

  it('a webhook URL on an IP address or a single-label host is fine', async () => {
    for (const webhook_url of ['http://10.0.0.5:8080/hook?tenant=1', 'http://receiver/hook']) {
      const t = await client.transcripts.submit({ ...base, webhook_url });
      expect(t.webhook_url).toBe(webhook_url);
    }
  });

  it.each([
    ['', /must not be empty/],
    ['X-Secret\r\nX-Injected: 1', /must not contain CR or LF/],
    ['X Secret', /valid header name/],
    ['X-Secret:', /valid header name/],
  ])('webhook_auth_header_name %j', async (name, pattern) => {
    const error = await refused({
      ...base,
      webhook_url: 'https://example.com/h',
      webhook_auth_header_name: name,
      webhook_auth_header_value: 'hook-secret-value',
    });
    expect(issue(error, 'webhook_auth_header_name')).toMatch(pattern);
    expect(JSON.stringify(error)).not.toContain('hook-secret-value');
  });

  it('a header value with CR/LF is refused without quoting it', async () => {
    const error = await refused({
      ...base,
      webhook_auth_header_name: 'X-Secret',
      webhook_auth_header_value: 'hook-secret\r\nX-Injected: 1',
    });
    expect(issue(error, 'webhook_auth_header_value')).toMatch(/CR, LF/);
    expect(`${error.message} ${JSON.stringify(error)}`).not.toContain('hook-secret');
  });

  it('a file: audio_url says to pass a local path as audio', async () => {
    const message = issue(await refused({ ...base, audio_url: 'file:///home/me/call.wav' }), 'audio_url');
    expect(message).toMatch(/pass the local path as `audio`/);
  });

  it('transcribe() refuses the same before uploading anything', async () => {
    const before = box.transcription.stats().requests;
    const bad = client.transcripts.transcribe({
      audio: new Uint8Array([1, 2, 3]),
      speech_models: ['universal-2'],
      webhook_url: 'http://',
    });
    await expect(bad).rejects.toBeInstanceOf(ValidationError);
    await expect(
      client.transcripts.transcribe({ audio_url: 'file:///tmp/a.wav', speech_models: ['universal-2'] }),
    ).rejects.toThrow(/audio_url/);
    expect(box.transcription.stats().requests).toBe(before);
  });
});
