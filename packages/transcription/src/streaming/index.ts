/**
 * `@x/transcription/streaming`: the live transcriber alone, for browsers, workers, Deno and Bun (with a
 * temporary token or `getToken`) as well as Node. It pulls in none of the REST client.
 */
export { ConnectionError, TimeoutError, ValidationError, XError } from '@x/core';
export * from '../schemas/streaming.js';
export * from '../schemas/streaming-messages.js';
export * from '../schemas/streaming-token.js';
export { captureMicrophone, type MicrophoneCapture, type MicrophoneOptions } from './audio/microphone.js';
export { float32ToPcm16, pcm16ToFloat32 } from './audio/pcm.js';
export { LinearResampler, resampleLinear } from './audio/resample.js';
export {
  parseWavHeader,
  type ReadWavOptions,
  readWav,
  type WavInfo,
  type WavReader,
  type WavSource,
} from './audio/wav.js';
export {
  StreamingAudioError,
  StreamingAuthenticationError,
  StreamingConcurrencyError,
  StreamingError,
  StreamingInvalidMessageError,
  StreamingServerError,
  StreamingSessionExpiredError,
} from './errors.js';
export type { CloseOptions, StreamingTranscriberEvents } from './events.js';
export type { AudioChunk } from './framer.js';
export type { StreamingTranscriberOptions, TokenSource } from './options.js';
export { StreamingTranscriber } from './transcriber.js';
