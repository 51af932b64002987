/**
 * The PocketSphinx engine on real speech: sentences synthesised at test time with flite's 16 kHz voices (nothing
 * binary is committed), recognised by `pocketsphinx_continuous`, converted by sox where needed. Needs the Debian
 * packages `.ci/run` installs: pocketsphinx pocketsphinx-en-us flite sox.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError, INSTALL_HINT, PocketSphinxEngine } from '../../src/transcription/engine/index.js';

const run = promisify(execFile);

/** Short customer-service sentences; expected words as spoken. */
const SENTENCES = [
  'my order number is four five six',
  'the package arrived broken',
  'thank you for your help',
  'i would like a refund please',
  'where is my delivery',
  'the tracking number is seven eight nine',
  'i was charged twice for the same order',
];
/** flite's 16 kHz voices (its default `kal` is 8 kHz and PocketSphinx hears noise in it). */
const VOICES = ['kal16', 'slt', 'rms'];

let dir: string;
let conversions: string;
let engine: PocketSphinxEngine;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'transcription-engine-'));
  conversions = join(dir, 'conversions');
  await mkdir(conversions);
  engine = new PocketSphinxEngine({ tmpDir: conversions });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let files = 0;
async function speak(voice: string, text: string): Promise<string> {
  const file = join(dir, `speech-${files++}.wav`);
  await run('flite', ['-voice', voice, '-t', text, '-o', file]);
  return file;
}

/** Words of `expected` recognised in order (longest common subsequence): recognition accuracy, not timing. */
function wordsMatched(expected: string[], got: string[]): number {
  let row = new Array<number>(got.length + 1).fill(0);
  for (const want of expected) {
    const next = [0];
    for (let j = 0; j < got.length; j++) {
      next.push(want === got[j] ? (row[j] as number) + 1 : Math.max(row[j + 1] as number, next[j] as number));
    }
    row = next;
  }
  return row[got.length] as number;
}

describe('PocketSphinxEngine', () => {
  // One test per voice and sentence: each is one recognition, so a slow shared machine never nears a test timeout.
  // Concurrent (vitest runs up to 5 at once): each recognition is one single-threaded process, so this file
  // uses every core when it is the last one running instead of adding its whole serial time to the suite.
  describe.each(VOICES)('flite voice %s', (voice) => {
    it.concurrent.for(SENTENCES)(
      'recognises "%s", with ordered word times within the audio',
      async (sentence, { expect }) => {
        const audio = await speak(voice, sentence);
        const result = await engine.transcribe(audio, { format_text: false, punctuate: false });
        const expected = sentence.split(' ');
        const got = result.words.map((w) => w.text);
        expect(result.text).toBe(got.join(' '));
        // At least 80% of the sentence's words, and not buried in extra ones.
        expect(
          wordsMatched(expected, got) / expected.length,
          `heard "${result.text}"`,
        ).toBeGreaterThanOrEqual(0.8);
        expect(got.length).toBeLessThanOrEqual(expected.length + 1);

        expect(result.audio_duration).toBeGreaterThan(0);
        let previousEnd = 0;
        for (const w of result.words) {
          expect(w.start).toBeGreaterThanOrEqual(previousEnd);
          expect(w.end).toBeGreaterThan(w.start);
          expect(w.confidence).toBeGreaterThanOrEqual(0);
          expect(w.confidence).toBeLessThanOrEqual(1);
          previousEnd = w.end;
        }
        expect(previousEnd).toBeLessThanOrEqual(result.audio_duration * 1000);
      },
    );
  });

  it('formats as the service does by default: sentence case, a period, the order number as digits', async () => {
    const audio = await speak('kal16', 'my order number is four five six');
    const result = await engine.transcribe(audio);
    expect(result.text).toBe('My order number is 456.');
    const raw = await engine.transcribe(audio, { format_text: false, punctuate: false });
    const four = raw.words.find((w) => w.text === 'four');
    const six = raw.words.find((w) => w.text === 'six');
    expect(result.words.at(-1)).toMatchObject({ text: '456.', start: four?.start, end: six?.end });
  });

  it('converts stereo 44.1 kHz and non-WAV audio with sox, and removes the converted copy', async () => {
    const audio = await speak('kal16', 'the package arrived broken');
    const native = await engine.transcribe(audio);
    for (const [name, args] of [
      ['stereo.wav', ['-r', '44100', '-c', '2']],
      ['speech.aiff', ['-r', '22050']],
    ] as const) {
      const converted = join(dir, name);
      await run('sox', [audio, ...args, converted]);
      const result = await engine.transcribe(converted);
      expect(result.text).toBe(native.text);
      expect(result.audio_duration).toBeCloseTo(native.audio_duration, 2);
      expect(await readdir(conversions)).toEqual([]);
    }
  });

  it('rejects a file that is not audio with the converter’s reason', async () => {
    const notes = join(dir, 'notes.txt');
    await writeFile(notes, 'this is not audio');
    const error = await engine.transcribe(notes).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({
      code: 'bad_audio',
      message: expect.stringMatching(/could not be converted.*sox/),
    });
    expect(await readdir(conversions)).toEqual([]);
  });

  it('a recogniser that fails (here: no acoustic model) is reported with its log and the install line', async () => {
    const noModel = new PocketSphinxEngine({ hmm: join(dir, 'no-such-model') });
    const audio = await speak('kal16', 'thank you for your help');
    const error = await noModel.transcribe(audio).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({ code: 'failed' });
    expect((error as Error).message).toMatch(/^pocketsphinx_continuous exited with status \d+: .+/);
    expect((error as Error).message).toContain(`(is the model installed? ${INSTALL_HINT})`);
  });

  it('without an engine on PATH, rejects with what to install (nothing is looked up before the call)', async () => {
    const bare = new PocketSphinxEngine({ path: '' });
    const audio = await speak('kal16', 'thank you for your help');
    const error = await bare.transcribe(audio).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({ code: 'unavailable' });
    expect((error as Error).message).toBe(
      `PocketSphinx is not installed: pocketsphinx_continuous was not found on PATH. Install it with: ${INSTALL_HINT}`,
    );
    expect(INSTALL_HINT).toBe('apt-get install pocketsphinx pocketsphinx-en-us sox');
  });

  it('without sox, recognises native audio but rejects other audio with what to install', async () => {
    const bin = join(dir, 'bin-without-sox');
    await mkdir(bin);
    const { stdout } = await run('sh', ['-c', 'command -v pocketsphinx_continuous']);
    await symlink(stdout.trim(), join(bin, 'pocketsphinx_continuous'));
    const noSox = new PocketSphinxEngine({ path: bin });

    const audio = await speak('kal16', 'where is my delivery');
    expect((await noSox.transcribe(audio)).text).toBe('Where is my delivery.');

    const stereo = join(dir, 'stereo-no-sox.wav');
    await run('sox', [audio, '-r', '44100', '-c', '2', stereo]);
    await expect(noSox.transcribe(stereo)).rejects.toThrow(
      `sox is not installed: it is needed to convert audio that is not 16 kHz mono 16-bit WAV (this file is 44100 Hz, 2 channel(s), 16-bit). Install it with: ${INSTALL_HINT}`,
    );
  });
});

describe('PocketSphinxEngine child process', () => {
  /** A stand-in recogniser that never finishes and says who it is, so the test can see it gone. */
  async function hangingEngine(name: string, timeoutMs?: number) {
    const bin = join(dir, name);
    await mkdir(bin);
    const pidFile = join(bin, 'pid');
    const script = join(bin, 'pocketsphinx_continuous');
    await writeFile(script, `#!/bin/sh\necho $$ > '${pidFile}'\nexec /bin/sleep 600\n`);
    await chmod(script, 0o755);
    const engine = new PocketSphinxEngine({ path: bin, ...(timeoutMs ? { timeoutMs } : {}) });
    const started = async (): Promise<number> => {
      for (let i = 0; i < 400; i++) {
        const pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
        if (pid > 0) return pid;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error('the stand-in recogniser never started');
    };
    return { engine, started };
  }
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it('abort kills the recogniser, and the call settles only once it has exited', async () => {
    const { engine: hanging, started } = await hangingEngine('bin-abort');
    const audio = await speak('kal16', 'thank you for your help');
    const controller = new AbortController();
    const call = hanging.transcribe(audio, { signal: controller.signal });
    const pid = await started();
    expect(alive(pid)).toBe(true);
    const reason = new Error('job cancelled');
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(alive(pid)).toBe(false);
  });

  it('a timeout kills the recogniser and says so', async () => {
    const { engine: hanging, started } = await hangingEngine('bin-timeout', 200);
    const audio = await speak('kal16', 'thank you for your help');
    const call = hanging.transcribe(audio);
    const pid = await started();
    await expect(call).rejects.toMatchObject({
      code: 'timeout',
      message: 'pocketsphinx_continuous did not finish within 200 ms and was stopped.',
    });
    expect(alive(pid)).toBe(false);
  });

  it('an already aborted signal starts nothing', async () => {
    const audio = await speak('kal16', 'thank you for your help');
    const controller = new AbortController();
    controller.abort();
    await expect(engine.transcribe(audio, { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
