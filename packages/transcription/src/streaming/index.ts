/**
 * `@x/transcription/streaming`: the live transcriber alone, for browsers, workers, Deno and Bun (with a
 * temporary token or `getToken`) as well as Node. It pulls in none of the REST client.
 * Entry convention: explicit named exports, zod schemas as `<name>Schema`, all of core's `ERROR_CLASSES`.
 */
export {
  AbortError,
  APIError,
  AuthenticationError,
  BadRequestError,
  BatchError,
  ConflictError,
  ConnectionError,
  FileError,
  IdempotencyAmbiguousError,
  IdempotencyConflictError,
  IdempotencyError,
  IdempotencyPendingError,
  IdempotencyStoreError,
  InternalServerError,
  NotFoundError,
  PaginationError,
  PermissionDeniedError,
  RateLimitError,
  RateLimitQueueError,
  RateLimitStoreError,
  RealtimeError,
  RedirectError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
  UnprocessableEntityError,
  ValidationError,
  XError,
} from '@x/core';
export {
  type StreamingEncoding,
  type StreamingParams,
  type StreamingPiiPolicy,
  type StreamingSpeechModel,
  type StreamingUpdateConfiguration,
  streamingEncoding as streamingEncodingSchema,
  streamingParams as streamingParamsSchema,
  streamingSpeechModel as streamingSpeechModelSchema,
  streamingUpdateConfiguration as streamingUpdateConfigurationSchema,
} from '../schemas/streaming.js';
export {
  type BeginEvent,
  type DecodedMessage,
  decodeMessage,
  type ErrorMessage,
  type SpeechStartedEvent,
  type StreamingServerMessage,
  type StreamingWord,
  streamingServerMessage as streamingServerMessageSchema,
  streamingWord as streamingWordSchema,
  type TerminationEvent,
  type TurnEvent,
  type WarningEvent,
} from '../schemas/streaming-messages.js';
export {
  type StreamingTemporaryToken,
  type StreamingTokenParams,
  streamingTemporaryToken as streamingTemporaryTokenSchema,
  streamingTokenParams as streamingTokenParamsSchema,
} from '../schemas/streaming-token.js';
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
