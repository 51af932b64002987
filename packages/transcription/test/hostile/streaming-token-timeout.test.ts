/**
 * Hostile review of the streaming transcriber (issue 18): a `getToken()` that never answers (a token
 * endpoint that hangs; browsers' fetch has no timeout of its own). The README: "Every path settles:
 * connect() rejects (never hangs …) with a TimeoutError when no Begin comes within connectTimeoutMs". The
 * connect timeout started only once the socket was made, after the token, so connect() hung, and a reconnect
 * whose token never came left close() pending forever (measured: still pending after 5 s with timeoutMs 500).
 */
import { expect, it } from 'vitest';
import { StreamingTranscriber, TimeoutError } from '../../src/streaming/index.js';
import { deafSandboxForFile, PARAMS } from '../helpers/deaf-sandbox.js';
import { record } from '../helpers/streaming.js';

const never = () => new Promise<string>(() => {});

const box = deafSandboxForFile();

async function freshToken(): Promise<string> {
  const res = await fetch(`${box.url}/v3/token?expires_in_seconds=60`, {
    headers: { Authorization: box.transcription.apiKey },
  });
  return ((await res.json()) as { token: string }).token;
}

it('connect() rejects with a TimeoutError when getToken() never answers', async () => {
  const transcriber = new StreamingTranscriber(PARAMS, {
    getToken: never,
    baseUrl: box.url,
    connectTimeoutMs: 200,
  });
  const seen = record(transcriber);
  await expect(transcriber.connect()).rejects.toBeInstanceOf(TimeoutError);
  expect(seen.closes).toHaveLength(1);
});

it("close() settles when a reconnect's getToken() never answers", async () => {
  let calls = 0;
  const transcriber = new StreamingTranscriber(PARAMS, {
    getToken: () => (++calls === 1 ? freshToken() : never()),
    baseUrl: box.url,
    // The first connection must succeed: 200 ms was too short for it on a busy CI machine. A close() that
    // waited for this timeout would still end (after each reconnect attempt timed out); one that hangs, the bug, fails the test.
    connectTimeoutMs: 5_000,
    reconnect: { maxAttempts: 2, backoff: { baseDelayMs: 10, maxDelayMs: 10 } },
  });
  const seen = record(transcriber);
  await transcriber.connect();
  const reconnecting = new Promise((resolve) => transcriber.on('reconnecting', resolve));
  box.transcription.streaming.dropSessions();
  await reconnecting;
  await transcriber.close({ timeoutMs: 200 });
  expect(calls).toBeGreaterThanOrEqual(2);
  expect(seen.closes).toHaveLength(1);
});
