import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, type TranscriptionClient, ValidationError } from '../../src/index.js';
import { clientFor, sandbox } from '../helpers/sandbox.js';

/** `client.streaming.createTemporaryToken()` against the emulator's `GET /v3/token` over a real socket. */
let box: Awaited<ReturnType<typeof sandbox>>;
let client: TranscriptionClient;

beforeAll(async () => {
  box = await sandbox();
  client = clientFor(box, { streamingBaseUrl: box.url });
});
afterAll(() => box?.close());

describe('streaming.createTemporaryToken', () => {
  it('answers a token and the expiry the service granted', async () => {
    const { data, response } = await client.streaming
      .createTemporaryToken({ expires_in_seconds: 60, max_session_duration_seconds: 600 })
      .withResponse();
    expect(typeof data.token).toBe('string');
    expect(data.token.length).toBeGreaterThan(10);
    expect(data.expires_in_seconds).toBe(60);
    expect(new URL(response.url).pathname).toBe('/v3/token');
    expect(new URL(response.url).searchParams.get('max_session_duration_seconds')).toBe('600');
  });

  it('issues a different single-use token each time', async () => {
    const tokens = await Promise.all(
      [1, 2, 3].map(() => client.streaming.createTemporaryToken({ expires_in_seconds: 600 })),
    );
    expect(new Set(tokens.map((t) => t.token)).size).toBe(3);
  });

  it.each([
    [{ expires_in_seconds: 0 }, 'expires_in_seconds', 'at least 1'],
    [{ expires_in_seconds: 601 }, 'expires_in_seconds', 'at most 600'],
    [{ expires_in_seconds: 1.5 }, 'expires_in_seconds', 'int'],
    [
      { expires_in_seconds: 60, max_session_duration_seconds: 59 },
      'max_session_duration_seconds',
      'at least 60',
    ],
    [
      { expires_in_seconds: 60, max_session_duration_seconds: 10_801 },
      'max_session_duration_seconds',
      'at most 10800',
    ],
    [{}, 'expires_in_seconds', 'expected number'],
    [
      { expires_in_seconds: 60, expires_in_second: 60 },
      'expires_in_second',
      'did you mean "expires_in_seconds"',
    ],
  ])('refuses %j before sending, naming %s', async (params, path, message) => {
    const before = box.transcription.stats().requests;
    const error = await client.streaming.createTemporaryToken(params as never).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    const issue = (error as ValidationError).issues.find((i) => i.path === path);
    expect(issue?.message).toContain(message);
    expect(box.transcription.stats().requests).toBe(before);
  });

  it('a wrong key is an AuthenticationError that does not quote the key', async () => {
    const wrong = clientFor(box, { apiKey: 'not-the-key-5f1e', streamingBaseUrl: box.url, maxRetries: 0 });
    const error = await wrong.streaming.createTemporaryToken({ expires_in_seconds: 60 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(JSON.stringify(error)).not.toContain('not-the-key-5f1e');
    expect(String(error)).not.toContain('not-the-key-5f1e');
  });
});
