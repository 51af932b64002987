/**
 * The streaming emulator's recognition seam. Until `engine/streaming.ts` lands, the interface is declared
 * here as agreed with it; afterwards this file only re-exports it and adds the factory the emulator takes.
 */
export interface StreamWord {
  text: string;
  start: number;
  end: number;
  confidence: number;
}
export interface RecognizerUpdate {
  words: StreamWord[];
  audioMs: number;
  inSpeech: boolean;
}
export interface StreamingRecognizer {
  write(pcm: Uint8Array): boolean;
  onUpdate(listener: (update: RecognizerUpdate) => void): void;
  endUtterance(): Promise<StreamWord[]>;
  onError(listener: (err: Error) => void): void;
  close(): void;
}

/**
 * Starts one session's recogniser (16 kHz mono s16le in). The emulator calls it once per session and closes
 * what it resolves when the session ends, however it ends; a rejection ends that session with 3005 and the
 * error's message, so it should say what to install.
 */
export type StreamingRecognizerFactory = () => Promise<StreamingRecognizer>;

export const RECOGNIZER_INSTALL_HINT = 'apt-get install python3-pocketsphinx pocketsphinx-en-us';

export const defaultRecognizerFactory: StreamingRecognizerFactory = async () => {
  throw new Error(
    `Streaming recognition is not available: python3-pocketsphinx is needed. Install it with: ${RECOGNIZER_INSTALL_HINT}`,
  );
};
