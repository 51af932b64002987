/**
 * The streaming emulator's recognition seam: the recogniser interface of `engine/streaming.ts`, and the
 * factory the emulator takes in its options (the way the REST emulator takes an `engine`), so a sandbox
 * without python3-pocketsphinx serves everything else and ends each session with 3005 saying what to install.
 */
import { type StreamingRecognizer, startStreamingRecognizer } from '../engine/streaming.js';

export type { RecognizerUpdate, StreamingRecognizer, StreamWord } from '../engine/streaming.js';

/**
 * Starts one session's recogniser (16 kHz mono s16le in). The emulator calls it once per session and closes
 * what it resolves when the session ends, however it ends; a rejection ends that session with 3005 and the
 * error's message, so it should say what to install.
 */
export type StreamingRecognizerFactory = () => Promise<StreamingRecognizer>;

/** PocketSphinx through Debian's `python3-pocketsphinx`, one process per session. */
export const defaultRecognizerFactory: StreamingRecognizerFactory = () => startStreamingRecognizer();
