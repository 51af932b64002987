/**
 * Speaker labels and multichannel against hostile and degenerate input, over real sockets with the real engine:
 * silence, a single word, headers that declare an hour of audio or more channels than the sandbox recognises,
 * and speaker counts that are not counts (Infinity written as 1e999, strings, fractions, min above max). Every
 * job must end (completed or error, never a hang or a crash), and a refusal names the field.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox, synthesizeSpeech } from '../../src/index.js';

const run = promisify(execFile);
const KEY = 'speakers_hostile_key';
const MODELS = ['universal-2'];
const NOWHERE = 'http://127.0.0.1:1/audio.wav';

let box: Sandbox<false>;
let dir: string;

beforeAll(async () => {
  box = await startSandbox({ store: false, transcription: { apiKeys: [KEY], rateLimit: false } });
  dir = await mkdtemp(join(tmpdir(), 'speakers-hostile-'));
});
afterAll(async () => {
  await box?.transcription?.idle();
  await box?.close();
  await rm(dir, { recursive: true, force: true });
});

async function upload(bytes: Buffer): Promise<string> {
  const res = await fetch(`${box.url}/v2/upload`, {
    method: 'POST',
    headers: { authorization: KEY },
    body: new Uint8Array(bytes),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { upload_url: string }).upload_url;
}

/** POSTs a raw JSON text (so 1e999 reaches the server as written); the HTTP status and body. */
async function create(body: string): Promise<{ status: number; json: any }> {
  const res = await fetch(`${box.url}/v2/transcript`, {
    method: 'POST',
    headers: { authorization: KEY, 'content-type': 'application/json' },
    body,
  });
  return { status: res.status, json: await res.json() };
}

/** Polls until the job has ended; the test's own timeout is what catches a job that never does. */
async function finished(id: string): Promise<any> {
  for (;;) {
    const res = await fetch(`${box.url}/v2/transcript/${id}`, { headers: { authorization: KEY } });
    const transcript = (await res.json()) as { status: string };
    if (transcript.status === 'completed' || transcript.status === 'error') return transcript;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function transcribe(params: Record<string, unknown>): Promise<any> {
  const created = await create(JSON.stringify({ speech_models: MODELS, ...params }));
  expect(created.status, JSON.stringify(created.json)).toBe(200);
  return finished(created.json.id);
}

/** A 16-bit PCM WAV header declaring `dataBytes` of audio, followed by `actual` bytes of silence. */
function wavHeader(channels: number, rate: number, dataBytes: number, actual: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(Math.min(0xffff_ffff, 36 + dataBytes), 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(Math.min(0xffff_ffff, dataBytes), 40);
  return Buffer.concat([header, Buffer.alloc(actual)]);
}

describe('speaker labels and multichannel on degenerate audio', () => {
  it('silence: completed with no words and no utterances, for speaker_labels and multichannel alike', async () => {
    const path = join(dir, 'silence.wav');
    await run('sox', ['-n', '-r', '16000', '-b', '16', '-c', '2', path, 'trim', '0', '2']);
    const url = await upload(await readFile(path));
    const labelled = await transcribe({ audio_url: url, speaker_labels: true });
    expect(labelled).toMatchObject({ status: 'completed', words: [], utterances: null });
    const channels = await transcribe({ audio_url: url, multichannel: true, speaker_labels: true });
    expect(channels).toMatchObject({ status: 'completed', words: [], utterances: null, audio_channels: 2 });
  });

  it('one word: speaker A, one utterance holding every word; a huge max_speakers_expected changes nothing', async () => {
    const url = await upload(await readFile(await synthesizeSpeech('hello', { voice: 'slt' })));
    for (const speaker_options of [
      undefined,
      { min_speakers_expected: 1, max_speakers_expected: 1_000_000 },
    ]) {
      const t = await transcribe({ audio_url: url, speaker_labels: true, speaker_options });
      expect(t.status).toBe('completed');
      expect(t.words.length).toBeGreaterThan(0);
      expect(new Set(t.words.map((w: { speaker: string }) => w.speaker))).toEqual(new Set(['A']));
      expect(t.utterances).toHaveLength(1);
      expect(t.utterances[0].words).toEqual(t.words);
    }
  });

  it('min_speakers_expected above what the audio holds: ends with letters in order of first appearance, no more than its words', async () => {
    const url = await upload(await readFile(await synthesizeSpeech('hello', { voice: 'slt' })));
    const t = await transcribe({
      audio_url: url,
      speaker_labels: true,
      speaker_options: { min_speakers_expected: 8 },
    });
    expect(t.status).toBe('completed');
    const firstSeen = [...new Set<string>(t.words.map((w: { speaker: string }) => w.speaker))];
    expect(firstSeen).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'].slice(0, firstSeen.length));
    expect(firstSeen.length).toBeLessThanOrEqual(Math.min(8, t.words.length));
  });

  it('a header declaring an hour of stereo audio in a few bytes is refused or bounded, never recognised for an hour', async () => {
    const declared = 3600 * 16_000 * 2 * 2;
    const url = await upload(wavHeader(2, 16_000, declared, 4096));
    const t = await transcribe({ audio_url: url, multichannel: true, speaker_labels: true });
    if (t.status === 'error') expect(t.error).toMatch(/duration|corrupt|seconds/i);
    else expect(t.audio_duration).toBeLessThanOrEqual(1);
  });

  it('more channels than the sandbox recognises: an error naming the limit, before any recognition', async () => {
    const url = await upload(wavHeader(12, 16_000, 12 * 2 * 1600, 12 * 2 * 1600));
    const t = await transcribe({ audio_url: url, multichannel: true });
    expect(t.status).toBe('error');
    expect(t.error).toMatch(/12 channels.*at most 8/);
  });
});

describe('speaker counts that are not counts', () => {
  const bodies: [name: string, speakerOptions: string, field: RegExp][] = [
    ['min Infinity (1e999)', '{"min_speakers_expected": 1e999}', /min_speakers_expected/],
    ['max -Infinity', '{"max_speakers_expected": -1e999}', /max_speakers_expected/],
    ['min "NaN"', '{"min_speakers_expected": "NaN"}', /min_speakers_expected/],
    ['min 2.5', '{"min_speakers_expected": 2.5}', /min_speakers_expected/],
    ['min 0', '{"min_speakers_expected": 0}', /min_speakers_expected/],
    ['max -3', '{"max_speakers_expected": -3}', /max_speakers_expected/],
    ['min above max', '{"min_speakers_expected": 4, "max_speakers_expected": 2}', /min_speakers_expected/],
    ['max an object', '{"max_speakers_expected": {"valueOf": 3}}', /max_speakers_expected/],
    ['an array', '[2, 3]', /speaker_options/],
    ['a string', '"two"', /speaker_options/],
  ];
  it.each(bodies)(
    '%s: refused (400 or a job error) naming the field, and the emulator keeps answering',
    async (_, options, field) => {
      const created = await create(
        `{"audio_url": "${NOWHERE}", "speech_models": ["universal-2"], "speaker_labels": true, "speaker_options": ${options}}`,
      );
      if (created.status === 400) {
        expect(created.json.error).toMatch(field);
      } else {
        expect(created.status).toBe(200);
        const t = await finished(created.json.id);
        expect(t.status).toBe('error');
        expect(t.error).toMatch(field);
        expect(t.error).not.toMatch(/127\.0\.0\.1/); // refused before any download was tried
      }
      expect(
        (await fetch(`${box.url}/v2/transcript?limit=1`, { headers: { authorization: KEY } })).status,
      ).toBe(200);
    },
  );

  it('speakers_expected of Infinity is refused at creation', async () => {
    const created = await create(
      `{"audio_url": "${NOWHERE}", "speech_models": ["universal-2"], "speakers_expected": 1e999}`,
    );
    expect(created.status).toBe(400);
    expect(created.json.error).toMatch(/speakers_expected/);
  });
});
