import { probeAudio, toNativeWav } from './audio.js';
import { Executables } from './executables.js';
import { formatWords, joinWords } from './format.js';
import { runTool } from './process.js';
import {
  type AudioHeader,
  type Engine,
  EngineError,
  type EngineResult,
  type EngineWord,
  INSTALL_HINT,
  type TranscribeOptions,
} from './types.js';
import { measureVoices } from './voice.js';

export interface PocketSphinxOptions {
  /** PATH searched for `pocketsphinx_continuous` and `sox` (and given to them). Default: this process's PATH. */
  path?: string;
  /** Per tool run (conversion, recognition). Default 5 minutes: recognition runs at several times real time. */
  timeoutMs?: number;
  /** Where converted audio is written (and removed after each call). Default: the OS temp directory. */
  tmpDir?: string;
  /** Acoustic model, language model and dictionary; default: the ones `pocketsphinx-en-us` installs. */
  hmm?: string;
  lm?: string;
  dict?: string;
}

const BINARY = 'pocketsphinx_continuous';

/**
 * CMU PocketSphinx 0.8 as Debian packages it (`pocketsphinx`, `pocketsphinx-en-us`), one
 * `pocketsphinx_continuous -infile FILE -time yes` process per transcription. Checked on PATH at the first
 * call, not at import, so the sandbox starts (and serves every other emulator) without it.
 */
export class PocketSphinxEngine implements Engine {
  readonly name = 'pocketsphinx';
  readonly #executables: Executables;
  readonly #timeoutMs: number;
  readonly #modelArgs: string[];
  readonly #tmpDir: string | undefined;

  constructor(options: PocketSphinxOptions = {}) {
    this.#executables = new Executables(options.path);
    this.#timeoutMs = options.timeoutMs ?? 300_000;
    this.#tmpDir = options.tmpDir;
    this.#modelArgs = [];
    for (const flag of ['hmm', 'lm', 'dict'] as const) {
      const value = options[flag];
      if (value) this.#modelArgs.push(`-${flag}`, value);
    }
  }

  probe(audioPath: string, options: { signal?: AbortSignal } = {}): Promise<AudioHeader | undefined> {
    return probeAudio(audioPath, {
      executables: this.#executables,
      signal: options.signal,
      timeoutMs: this.#timeoutMs,
    });
  }

  async transcribe(audioPath: string, options: TranscribeOptions = {}): Promise<EngineResult> {
    const { signal } = options;
    // Before any conversion: audio we could convert but not recognise is wasted work.
    const binary = await this.#executables.find(BINARY);
    if (!binary) {
      throw new EngineError(
        'unavailable',
        `PocketSphinx is not installed: ${BINARY} was not found on PATH. Install it with: ${INSTALL_HINT}`,
      );
    }
    const audio = await toNativeWav(audioPath, {
      executables: this.#executables,
      signal,
      timeoutMs: this.#timeoutMs,
      tmpDir: this.#tmpDir,
      ...(options.maxSeconds === undefined ? {} : { maxSeconds: options.maxSeconds }),
      ...(options.channel === undefined ? {} : { channel: options.channel }),
    });
    try {
      const { stdout } = await runTool(binary, ['-infile', audio.path, '-time', 'yes', ...this.#modelArgs], {
        signal,
        timeoutMs: this.#timeoutMs,
        path: this.#executables.path,
        label: BINARY,
      }).catch((error: unknown) => {
        // The usual cause of a failing start is the missing model package (`pocketsphinx-en-us`).
        if (error instanceof EngineError && error.code === 'failed') {
          throw new EngineError('failed', `${error.message} (is the model installed? ${INSTALL_HINT})`, {
            cause: error,
          });
        }
        throw error;
      });
      const words = formatWords(parseWordTimes(stdout, audio.duration), options);
      const result: EngineResult = { words, text: joinWords(words), audio_duration: audio.duration };
      // Measured on the converted audio before it is removed: the job never sees that file.
      if (options.voices) result.voices = await measureVoices(audio.path, words);
      return result;
    } finally {
      await audio.dispose();
    }
  }
}

/** `<s>`, `</s>`, `<sil>`, `[NOISE]`, `++BREATH++`: segments that are not words. */
const NOT_A_WORD = /^(<.*>|\[.*\]|\+\+.*\+\+)$/;
const WORD_LINE = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$/;

/**
 * The words of `pocketsphinx_continuous -time yes` output. Per utterance it prints the hypothesis, then one line
 * per segment: `word start end confidence`, times in seconds from the start of the file. Alternative
 * pronunciations carry a suffix (`package(2)`), dropped here. Ends are clamped to the audio's duration, and
 * confidences (a posterior that can print as 1.000100) to 0..1.
 */
export function parseWordTimes(stdout: string, durationSeconds: number): EngineWord[] {
  const limit = Math.round(durationSeconds * 1000);
  const words: EngineWord[] = [];
  for (const line of stdout.split('\n')) {
    const match = WORD_LINE.exec(line.trim());
    if (!match) continue;
    const [, token, start, end, confidence] = match as unknown as [string, string, string, string, string];
    if (NOT_A_WORD.test(token)) continue;
    const startMs = Math.min(Math.round(Number(start) * 1000), limit);
    words.push({
      text: token.replace(/\(\d+\)$/, ''),
      start: startMs,
      end: Math.max(startMs, Math.min(Math.round(Number(end) * 1000), limit)),
      confidence: Math.min(1, Math.max(0, Number(confidence))),
    });
  }
  return words;
}
