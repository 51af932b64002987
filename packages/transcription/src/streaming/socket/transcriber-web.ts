/**
 * The `default` side of the `#transcriber` import map: no transcriber on the client outside Node (use
 * `@x/transcription/streaming` with a token there).
 */
import type { StreamingTranscriber as Transcriber } from '../transcriber.js';

export const StreamingTranscriber: typeof Transcriber | undefined = undefined;
