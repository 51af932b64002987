/**
 * Live recognition for the streaming emulator: one long-lived PocketSphinx decoder per session, fed as audio
 * arrives, reporting the growing hypothesis of the current utterance. Same library and model as the batch
 * engine (`pocketsphinx.ts`), through Debian's Python binding, which exposes partial hypotheses that
 * `pocketsphinx_continuous` does not print (see `streaming-program.ts`).
 */
import { Executables } from './executables.js';
import { RecognizerProcess, STREAMING_INSTALL_HINT } from './streaming-process.js';
import type { StreamingRecognizer } from './streaming-recognizer.js';
import { EngineError } from './types.js';

export type { StreamWord } from './streaming-messages.js';
export type { RecognizerUpdate, StreamingRecognizer } from './streaming-recognizer.js';
export { STREAMING_INSTALL_HINT };

export interface StreamingRecognizerOptions {
  /** A python3 with `python3-pocketsphinx`; default: `python3` on PATH if it has it, else /usr/bin/python3. */
  python?: string;
  /** Acoustic model, language model and dictionary; default: the ones `pocketsphinx-en-us` installs. */
  hmm?: string;
  lm?: string;
  dict?: string;
  /** Audio waiting to be recognised past which `write` returns false. Default 2000 ms. */
  maxQueuedMs?: number;
}

const MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
/** Where Debian's python3-pocketsphinx lives; used when the python3 on PATH (a pyenv one, say) lacks it. */
const DEBIAN_PYTHON = '/usr/bin/python3';

/**
 * Per PATH, the python that last started a recogniser. Why a module-level cache: without it, on a machine
 * whose PATH python3 lacks the binding (pyenv), every session would first pay a failed start of that python.
 * Only successes are kept, so installing the package takes effect without a restart.
 */
const workingPython = new Map<string, string>();

/**
 * Starts a recogniser process and resolves once its model is loaded (~0.4 s), so a session can refuse to
 * begin when recognition is impossible. Rejects with `EngineError`: 'unavailable' when no python can import
 * pocketsphinx (naming the Debian package), 'failed' when the model cannot be loaded, 'timeout'. After it
 * resolves, failures go to `onError`.
 */
export async function startStreamingRecognizer(
  options: StreamingRecognizerOptions = {},
): Promise<StreamingRecognizer> {
  const maxQueuedMs = options.maxQueuedMs ?? 2000;
  if (!(maxQueuedMs >= 0)) throw new RangeError(`maxQueuedMs must be a number >= 0, got ${maxQueuedMs}`);
  const path = process.env.PATH ?? '';
  const models = {
    hmm: options.hmm ?? `${MODEL_DIR}/en-us`,
    lm: options.lm ?? `${MODEL_DIR}/en-us.lm.bin`,
    dict: options.dict ?? `${MODEL_DIR}/cmudict-en-us.dict`,
  };
  const candidates = options.python ? [options.python] : await pythonCandidates(path);
  const unavailable: string[] = [];
  for (const python of candidates) {
    const recognizer = new RecognizerProcess({ python, path, maxQueuedMs, ...models });
    try {
      await recognizer.ready;
      if (!options.python) workingPython.set(path, python);
      return recognizer;
    } catch (error) {
      // Only a python without the binding is worth passing over; a model that fails fails in any python.
      if (!(error instanceof EngineError && error.code === 'unavailable') || candidates.length === 1)
        throw error;
      unavailable.push(python);
    }
  }
  throw new EngineError(
    'unavailable',
    `python3-pocketsphinx is not installed: none of ${unavailable.join(', ')} can import pocketsphinx. Install it with: ${STREAMING_INSTALL_HINT}`,
  );
}

async function pythonCandidates(path: string): Promise<string[]> {
  const onPath = await new Executables(path).find('python3');
  const candidates = [workingPython.get(path), onPath, DEBIAN_PYTHON];
  return candidates.filter((python, i): python is string => !!python && candidates.indexOf(python) === i);
}
