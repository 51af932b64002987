/**
 * The transcription emulator's speech engines. `createEngine(config)` is the configuration seam: the REST layer
 * holds an `Engine` and never names an implementation.
 */
import { PocketSphinxEngine, type PocketSphinxOptions } from './pocketsphinx.js';
import type { Engine } from './types.js';

export { parseSoxInfo, probeAudio } from './audio.js';
export { type FormatOptions, formatWords, joinWords, SENTENCE_PAUSE_MS } from './format.js';
export { digitise, findNumberRuns, readCardinal } from './numbers.js';
export { PocketSphinxEngine, type PocketSphinxOptions, parseWordTimes } from './pocketsphinx.js';
export {
  type AudioHeader,
  type Engine,
  EngineError,
  type EngineErrorCode,
  type EngineResult,
  type EngineWord,
  INSTALL_HINT,
  type TranscribeOptions,
  type WordVoice,
} from './types.js';
export { measureVoices, voiceOf } from './voice.js';

/** Engines by configuration name; whisper.cpp joins here as `{ engine: 'whisper-cpp', ... }`. */
export type EngineConfig = { engine: 'pocketsphinx' } & PocketSphinxOptions;

export function createEngine(config: EngineConfig = { engine: 'pocketsphinx' }): Engine {
  switch (config.engine) {
    case 'pocketsphinx': {
      const { engine: _name, ...options } = config;
      return new PocketSphinxEngine(options);
    }
    default:
      throw new TypeError(
        `Unknown transcription engine ${JSON.stringify((config as { engine: unknown }).engine)}`,
      );
  }
}
