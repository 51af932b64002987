/**
 * The streaming recogniser on real speech and real processes: sentences synthesised at test time by flite's
 * `slt` voice, converted to 16 kHz raw PCM by sox, written to one long-lived python3-pocketsphinx decoder.
 * Needs the Debian packages `.ci/run` installs: python3-pocketsphinx pocketsphinx-en-us flite sox.
 * Nothing here measures time: progress is counted in audio milliseconds, and waits are bounded loops.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type RecognizerUpdate,
  STREAMING_INSTALL_HINT,
  type StreamingRecognizer,
  type StreamingRecognizerOptions,
  type StreamWord,
  startStreamingRecognizer,
} from '../../src/transcription/engine/streaming.js';
import { EngineError } from '../../src/transcription/engine/types.js';
import { synthesizeSpeech, wordErrorRate } from '../../src/transcription/speech.js';

const run = promisify(execFile);
/** 16 kHz 16-bit mono. */
const msOf = (bytes: number) => Math.floor(bytes / 32);

let dir: string;
const opened: StreamingRecognizer[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'streaming-recognizer-'));
});
afterEach(() => {
  for (const recognizer of opened.splice(0)) recognizer.close();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let files = 0;
async function speech(text: string): Promise<Buffer> {
  const n = files++;
  const wav = await synthesizeSpeech(text, { voice: 'slt', path: join(dir, `speech-${n}.wav`) });
  const raw = join(dir, `speech-${n}.raw`);
  await run('sox', [wav, '-t', 'raw', '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', raw]);
  return readFile(raw);
}

interface Opened {
  recognizer: StreamingRecognizer;
  updates: RecognizerUpdate[];
  errors: Error[];
  /** The pids of the processes it started (its process group is the first). */
  pids: number[];
}

async function open(options?: StreamingRecognizerOptions): Promise<Opened> {
  const before = new Set(await children());
  const recognizer = await startStreamingRecognizer(options);
  opened.push(recognizer);
  const updates: RecognizerUpdate[] = [];
  const errors: Error[] = [];
  recognizer.onUpdate((update) => updates.push(update));
  recognizer.onError((error) => errors.push(error));
  const pids = (await children()).filter((pid) => !before.has(pid));
  expect(pids).toHaveLength(1);
  return { recognizer, updates, errors, pids };
}

/** This worker's child processes, zombies included (`ps` itself left out). */
async function children(): Promise<number[]> {
  const { stdout } = await run('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)]).catch(() => ({
    stdout: '',
  }));
  return stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([pid, comm]) => pid && comm !== 'ps')
    .map(([pid]) => Number(pid));
}

/** Whether any process of the group led by `pid` still exists (a zombie counts: it is not yet reaped). */
function groupExists(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never happened: ${what}`);
}

/** Low noise, as a quiet room gives (digital silence is not what a microphone sends); the same every run. */
function quietNoise(ms: number): Buffer {
  const noise = Buffer.alloc(ms * 32);
  let seed = 1;
  for (let i = 0; i < noise.length; i += 2) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    noise.writeInt16LE((seed % 61) - 30, i);
  }
  return noise;
}

function writeInChunks(recognizer: StreamingRecognizer, audio: Uint8Array, bytes: number): void {
  for (let offset = 0; offset < audio.length; offset += bytes) {
    recognizer.write(audio.subarray(offset, offset + bytes));
  }
}

const text = (words: StreamWord[]) => words.map((w) => w.text).join(' ');

/** Times inside `fromMs..toMs`, each word starting where the previous one ended or later. */
function expectOrdered(words: StreamWord[], fromMs: number, toMs: number): void {
  let previousEnd = fromMs;
  for (const w of words) {
    expect(w.text).toMatch(/^[a-z'.-]+$/); // no <s>, [NOISE], package(2)
    expect(w.start).toBeGreaterThanOrEqual(previousEnd);
    expect(w.end).toBeGreaterThanOrEqual(w.start);
    expect(w.confidence).toBeGreaterThanOrEqual(0);
    expect(w.confidence).toBeLessThanOrEqual(1);
    expect(Number.isInteger(w.start) && Number.isInteger(w.end)).toBe(true);
    previousEnd = w.end;
  }
  expect(previousEnd).toBeLessThanOrEqual(toMs);
}

describe('startStreamingRecognizer on speech', () => {
  it('reports growing partials at least every 500 ms of audio, then the words that were spoken', async () => {
    const spoken = 'i would like a refund please because the package arrived broken';
    const audio = await speech(spoken);
    const { recognizer, updates, errors } = await open();
    writeInChunks(recognizer, audio, 3200);
    const final = await recognizer.endUtterance();

    const partials = updates.filter((u) => u.words.length > 0);
    expect(partials.length).toBeGreaterThanOrEqual(3);
    expect(partials.at(-1)!.words.length).toBeGreaterThan(partials[0]!.words.length);
    expect(updates.some((u) => u.inSpeech)).toBe(true);
    let previous = 0;
    for (const update of updates) {
      expect(update.audioMs).toBeGreaterThanOrEqual(previous);
      expect(update.audioMs - previous).toBeLessThanOrEqual(500);
      expectOrdered(update.words, 0, update.audioMs);
      previous = update.audioMs;
    }
    expect(msOf(audio.length) - previous).toBeLessThanOrEqual(500);

    expect(wordErrorRate(spoken, text(final)), `heard "${text(final)}"`).toBeLessThanOrEqual(0.15);
    expectOrdered(final, 0, msOf(audio.length));
    expect(final.some((w) => w.confidence < 1)).toBe(true); // posteriors, not the partials' placeholder
    expect(errors).toEqual([]);
  });

  it('recognises utterance after utterance, times continuing across them (corpus word error rate <= 0.15)', async () => {
    const sentences = [
      'the package arrived broken',
      'thank you for your help',
      'where is my delivery',
      'please cancel my subscription',
    ];
    const { recognizer, errors } = await open();
    let written = 0;
    let wordErrors = 0;
    let referenceWords = 0;
    let previousEnd = 0;
    for (const spoken of sentences) {
      const audio = await speech(spoken);
      const from = msOf(written);
      written += audio.length;
      writeInChunks(recognizer, audio, 4000);
      const words = await recognizer.endUtterance();
      expect(from).toBeGreaterThanOrEqual(previousEnd);
      expectOrdered(words, from, msOf(written));
      expect(words.length).toBeGreaterThan(0);
      previousEnd = words.at(-1)!.end;
      const count = spoken.split(' ').length;
      wordErrors += wordErrorRate(spoken, text(words)) * count;
      referenceWords += count;
    }
    expect(wordErrors / referenceWords).toBeLessThanOrEqual(0.15);
    expect(errors).toEqual([]);
  });

  it('keeps word times on the audio across a pause inside one utterance', async () => {
    const first = await speech('my order number is four five six');
    const second = await speech('the package arrived broken');
    const pause = quietNoise(1000);
    const { recognizer, errors } = await open();
    for (const audio of [first, pause, second]) writeInChunks(recognizer, audio, 3200);
    const words = await recognizer.endUtterance();
    const total = msOf(first.length + pause.length + second.length);
    expectOrdered(words, 0, total);
    const spoken = 'my order number is four five six the package arrived broken';
    expect(wordErrorRate(spoken, text(words)), `heard "${text(words)}"`).toBeLessThanOrEqual(0.15);
    // The decoder would put the second sentence ~2 s late (past the end, clamped there) had it not been
    // restarted at the pause: its words lie inside its own audio, each with a length.
    const secondStarts = msOf(first.length + pause.length);
    const secondWords = words.filter((w) => w.start >= secondStarts);
    expect(text(secondWords)).toBe('the package arrived broken');
    expect(secondWords[0]!.start).toBeLessThan(secondStarts + 500); // flite starts speaking ~0.2 s in
    for (const w of words) expect(w.end).toBeGreaterThan(w.start);
    expect(errors).toEqual([]);
  });

  it('takes audio in odd-sized writes, a sample split across two of them', async () => {
    const spoken = 'can you send a replacement today';
    const audio = await speech(spoken);
    const { recognizer } = await open();
    writeInChunks(recognizer, audio, 4411);
    const words = await recognizer.endUtterance();
    expect(wordErrorRate(spoken, text(words)), `heard "${text(words)}"`).toBeLessThanOrEqual(0.15);
  });

  it('endUtterance twice in a row: the second utterance is empty, and the next one is heard', async () => {
    const { recognizer, updates, errors } = await open();
    expect(await recognizer.endUtterance()).toEqual([]); // before any audio
    const audio = await speech('thank you for your help');
    recognizer.write(audio);
    const [first, second] = await Promise.all([recognizer.endUtterance(), recognizer.endUtterance()]);
    expect(text(first!)).toBe('thank you for your help');
    expect(second).toEqual([]);
    expect(await recognizer.endUtterance()).toEqual([]);

    const seen = updates.length;
    recognizer.write(audio);
    const third = await recognizer.endUtterance();
    expect(text(third)).toBe('thank you for your help');
    expectOrdered(third, msOf(audio.length), msOf(audio.length * 2));
    // The updates of the third utterance hold none of the first one's words.
    for (const update of updates.slice(seen)) expectOrdered(update.words, msOf(audio.length), update.audioMs);
    expect(errors).toEqual([]);
  });

  it('write returns false while more than maxQueuedMs is waiting, and true once it is consumed', async () => {
    const { recognizer } = await open({ maxQueuedMs: 100 });
    const audio = await speech('where is my delivery');
    expect(recognizer.write(audio)).toBe(false);
    await recognizer.endUtterance();
    expect(recognizer.write(new Uint8Array(0))).toBe(true);
    expect(recognizer.write(new Uint8Array(3200))).toBe(true); // 100 ms: not more than the bound
  });
});

describe('startStreamingRecognizer process lifecycle', () => {
  it('close mid-stream rejects pending utterances, stops the process and leaves no zombie', async () => {
    const { recognizer, errors, pids } = await open();
    const audio = await speech('i was charged twice for the same order');
    recognizer.write(audio);
    const pending = recognizer.endUtterance();
    recognizer.close();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect(recognizer.endUtterance()).rejects.toMatchObject({ name: 'AbortError' });
    expect(recognizer.write(audio)).toBe(false);
    recognizer.close();
    await until(() => !groupExists(pids[0]!), 'the recogniser process reaped');
    expect(errors).toEqual([]);
  });

  it('a recogniser killed from outside reaches onError, once, and its pending utterance rejects', async () => {
    const { recognizer, errors, pids } = await open();
    const audio = await speech('where is my delivery');
    // ~13 s of audio: far more than it can recognise between this write and the kill below.
    for (let i = 0; i < 10; i++) recognizer.write(audio);
    const pending = recognizer.endUtterance();
    const rejected = pending.catch((error: unknown) => error);
    process.kill(pids[0]!, 'SIGKILL');
    await until(() => errors.length > 0, 'onError');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(EngineError);
    expect(errors[0]).toMatchObject({
      code: 'failed',
      message: expect.stringMatching(/was killed by SIGKILL/),
    });
    expect(await rejected).toBe(errors[0]);
    await expect(recognizer.endUtterance()).rejects.toBe(errors[0]);
    expect(recognizer.write(new Uint8Array(320))).toBe(false);
    // A listener that comes late still hears it.
    const late = await new Promise<Error>((resolve) => recognizer.onError(resolve));
    expect(late).toBe(errors[0]);
    await until(() => !groupExists(pids[0]!), 'the recogniser process reaped');
  });

  it('a python without the binding is refused with the Debian package to install', async () => {
    const python = await script('python-without-binding', 'exec /usr/bin/python3 -S "$@"');
    const error = await startStreamingRecognizer({ python }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({ code: 'unavailable' });
    expect((error as Error).message).toMatch(
      /^python3-pocketsphinx is not installed for .*python-without-binding \(No module named 'pocketsphinx'\)/,
    );
    expect((error as Error).message).toContain(`Install it with: ${STREAMING_INSTALL_HINT}`);
    expect(STREAMING_INSTALL_HINT).toBe('apt-get install python3-pocketsphinx pocketsphinx-en-us');

    await expect(startStreamingRecognizer({ python: join(dir, 'no-such-python') })).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringContaining(STREAMING_INSTALL_HINT),
    });
  });

  it('a python3 on PATH without the binding is passed over for /usr/bin/python3', async () => {
    const bin = join(dir, 'bin-python-without-binding');
    await script('bin-python-without-binding/python3', 'exec /usr/bin/python3 -S "$@"', bin);
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    try {
      const { recognizer } = await open();
      recognizer.write(await speech('thank you for your help'));
      expect(text(await recognizer.endUtterance())).toBe('thank you for your help');
    } finally {
      process.env.PATH = path;
    }
  });

  it('a model that cannot be loaded fails the start with what is missing', async () => {
    await expect(startStreamingRecognizer({ hmm: join(dir, 'no-such-model') })).rejects.toMatchObject({
      code: 'failed',
      message: expect.stringMatching(/the acoustic model .*no-such-model does not exist/),
    });
  });

  it.for([
    ['garbage', `echo 'Traceback (most recent call last):'`],
    ['a line without end', `head -c 3000000 /dev/zero | tr '\\000' a`],
    ['a result nobody asked for', `echo '{"type":"final","words":[],"audioMs":0}'`],
  ])('a process that writes %s reaches onError, and its whole group is killed', async ([name, output]) => {
    const python = await script(
      `python-${files++}`,
      // a child of its own, ready, then the bad output once audio arrives, then hang on as a stuck process would
      `sleep 600 &\necho '{"type":"ready"}'\nhead -c 1 >/dev/null\n${output}\nexec sleep 600`,
    );
    const { recognizer, errors, pids } = await open({ python });
    recognizer.write(new Uint8Array(3200));
    await until(() => errors.length > 0, `onError after ${name}`);
    expect(errors[0]).toMatchObject({ code: 'failed', message: expect.stringMatching(/ wrote /) });
    await until(() => !groupExists(pids[0]!), 'the process group gone');
  });
});

async function script(name: string, body: string, parent?: string): Promise<string> {
  if (parent) await run('mkdir', ['-p', parent]);
  const file = join(dir, name);
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}
