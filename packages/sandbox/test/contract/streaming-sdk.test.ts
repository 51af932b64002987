/**
 * Contract: the official `assemblyai` SDK 4.41.5's streaming client against the `/v3/ws` emulator, used as its
 * README shows: `client.streaming.transcriber({...})` with the API key, and with a temporary token from
 * `client.streaming.createTemporaryToken`; flite speech (16 kHz `slt`) streamed at real-time pace in 100 ms
 * chunks; partial and final turns whose text says what was spoken (WER ≤ 0.15); `close()` answered with a
 * Termination. The SDK takes only `wss://` URLs and no CA option, so the sandbox is served over HTTPS and
 * each SDK session runs in a child Node process started with NODE_EXTRA_CA_CERTS naming the sandbox's
 * certificate (Node reads that variable only at start): the certificate is trusted, not verification turned off.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox, synthesizeSpeech, wordErrorRate } from '../../src/index.js';
import { concat, silence, wavPcm, wholeChunks } from '../helpers/streaming.js';

const run = promisify(execFile);
const FIRST = 'my order number is four five six';
const SECOND = 'i would like a refund please';

interface SdkEvent {
  event: string;
  [field: string]: any;
}

let box: Sandbox<false>;
let dir: string;
let pcmPath: string;
let caPath: string;

beforeAll(async () => {
  box = await startSandbox({
    store: false,
    https: true,
    transcription: { rateLimit: false, streaming: { newSessionsPerMinute: false } },
  });
  dir = await mkdtemp(join(tmpdir(), 'x-sandbox-sdk-'));
  caPath = join(dir, 'sandbox.pem');
  await writeFile(caPath, box.certificate!);
  const say = async (text: string) => wavPcm(await readFile(await synthesizeSpeech(text, { voice: 'slt' })));
  pcmPath = join(dir, 'speech.pcm');
  await writeFile(
    pcmPath,
    wholeChunks(concat(await say(FIRST), silence(1500), await say(SECOND), silence(1500))),
  );
}, 60_000);

afterAll(async () => {
  await box?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs one SDK session in a child process and answers its events. */
async function sdkSession(useToken: boolean, params: Record<string, unknown>): Promise<SdkEvent[]> {
  const plan = {
    httpsUrl: box.url,
    wssUrl: box.transcription!.streaming.url,
    apiKey: box.transcription!.apiKey,
    useToken,
    pcmPath,
    params,
  };
  const script = join(import.meta.dirname, '../helpers/streaming-sdk-session.ts');
  // A session that fails exits with status 1 after printing why: its output is read either way.
  const stdout = await run(process.execPath, ['--import', 'tsx', script, JSON.stringify(plan)], {
    cwd: join(import.meta.dirname, '../..'),
    env: { ...process.env, NODE_EXTRA_CA_CERTS: caPath },
    timeout: 60_000,
  }).then(
    (done) => done.stdout,
    (error: { stdout?: string }) => error.stdout ?? '',
  );
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as SdkEvent);
}

describe('official assemblyai SDK streaming against the emulator', () => {
  it('the certificate is the only trust: the sandbox serves https and wss', () => {
    expect(box.url.startsWith('https://')).toBe(true);
    expect(box.transcription!.streaming.url.startsWith('wss://')).toBe(true);
  });

  it('with the API key: Begin, partial turns, finals and formatted finals that say what was spoken, Termination', async () => {
    const before = box.transcription!.streaming.stats().terminations;
    const events = await sdkSession(false, { speechModel: 'universal-streaming-english', formatTurns: true });
    expect(events.map((e) => e.event).filter((e) => e !== 'turn')).toEqual(['open', 'closed', 'done']);
    const { begin } = events[0]!;
    expect(begin).toMatchObject({ type: 'Begin', id: expect.any(String), expires_at: expect.any(Number) });
    const turns = events.filter((e) => e.event === 'turn').map((e) => e.turn);
    expect(turns.some((t) => !t.end_of_turn)).toBe(true);
    const finals = turns.filter((t) => t.end_of_turn && !t.turn_is_formatted);
    const formatted = turns.filter((t) => t.end_of_turn && t.turn_is_formatted);
    expect(finals.map((t) => t.turn_order)).toEqual([0, 1]);
    expect(formatted.map((t) => t.turn_order)).toEqual([0, 1]);
    const spoken = `${FIRST} ${SECOND}`;
    expect(wordErrorRate(spoken, finals.map((t) => t.transcript).join(' '))).toBeLessThanOrEqual(0.15);
    expect(
      wordErrorRate(spoken.replace('four five six', '456'), formatted.map((t) => t.transcript).join(' ')),
    ).toBeLessThanOrEqual(0.15);
    for (const t of finals)
      expect(t.words.every((w: { word_is_final: boolean }) => w.word_is_final)).toBe(true);
    // close() waited for the server's Termination (counted as it is sent), then closed the socket.
    expect(box.transcription!.streaming.stats().terminations).toBe(before + 1);
  }, 90_000);

  it('with a temporary token from createTemporaryToken, on the default model (Universal-3 Pro)', async () => {
    const before = box.transcription!.streaming.stats().terminations;
    const events = await sdkSession(true, {});
    const kinds = events.map((e) => e.event);
    expect(kinds[0]).toBe('token');
    expect(events[0]!.length).toBeGreaterThan(20);
    expect(kinds.filter((k) => k !== 'turn' && k !== 'speechStarted')).toEqual([
      'token',
      'open',
      'closed',
      'done',
    ]);
    expect(kinds.indexOf('speechStarted')).toBeLessThan(kinds.indexOf('turn'));
    const finals = events.filter((e) => e.event === 'turn' && e.turn.end_of_turn).map((e) => e.turn);
    expect(finals.every((t) => t.turn_is_formatted)).toBe(true);
    const spoken = `${FIRST} ${SECOND}`.replace('four five six', '456');
    expect(wordErrorRate(spoken, finals.map((t) => t.transcript).join(' '))).toBeLessThanOrEqual(0.15);
    expect(box.transcription!.streaming.stats().terminations).toBe(before + 1);
  }, 90_000);

  it('a refused connect rejects connect() with the Error frame message (after retrying: the SDK deems 1008 transient)', async () => {
    const before = box.transcription!.streaming.stats().refused[1008] ?? 0;
    const events = await sdkSession(false, { speechModel: 'universal-streaming-english', apiKey: 'wrong' });
    expect(events).toEqual([{ event: 'failed', message: 'Unauthorized Connection: Invalid API key' }]);
    // The docs call 1008 an auth or account failure; the SDK retries it twice (maxConnectionRetries 2).
    expect(box.transcription!.streaming.stats().refused[1008]).toBe(before + 3);
  }, 60_000);
});
