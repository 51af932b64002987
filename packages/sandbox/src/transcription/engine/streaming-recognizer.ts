/**
 * What a streaming session sees of its recogniser. Apart from `streaming.ts` (which starts one) so that the
 * process that implements it (`streaming-process.ts`) does not import the module that starts it.
 */
import type { StreamWord } from './streaming-messages.js';

export interface RecognizerUpdate {
  /** Hypothesis of the current utterance (everything since the last endUtterance), best path. */
  words: StreamWord[];
  /** Audio the recogniser has consumed so far, ms from the start of the session. */
  audioMs: number;
  /** PocketSphinx's VAD at that point. */
  inSpeech: boolean;
}

export interface StreamingRecognizer {
  /**
   * 16 kHz mono PCM s16le, any length. Returns false when more than `maxQueuedMs` of audio is waiting to be
   * recognised (backpressure; the audio is still accepted). Known to within 500 ms: the recogniser reports
   * its position with each update. After close or a failure it accepts nothing and returns false.
   */
  write(pcm: Uint8Array): boolean;
  /** Called at least every 500 ms of consumed audio while the utterance has words, and when inSpeech changes. */
  onUpdate(listener: (update: RecognizerUpdate) => void): void;
  /** Ends the current utterance after all audio written so far is consumed: resolves with its final words; later audio starts a new utterance. */
  endUtterance(): Promise<StreamWord[]>;
  /**
   * The process failed or exited unexpectedly (EngineError from engine/types.ts, kind 'unavailable' when
   * python3-pocketsphinx is missing, naming the Debian package to install). Each listener hears it once, even
   * when it registers after the failure.
   */
  onError(listener: (err: Error) => void): void;
  /** Stops the process at once; idempotent; pending endUtterance promises reject. */
  close(): void;
}
