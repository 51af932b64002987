export {
  AbortError,
  APIError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  FileError,
  fileBody,
  IdempotencyAmbiguousError,
  IdempotencyConflictError,
  IdempotencyError,
  IdempotencyPendingError,
  type IdempotencyStore,
  IdempotencyStoreError,
  InternalServerError,
  type Logger,
  type LogLevel,
  MemoryIdempotencyStore,
  NotFoundError,
  Page,
  PagePromise,
  PaginationError,
  PermissionDeniedError,
  type Progress,
  RateLimitError,
  type RateLimiter,
  type RateLimitOptions,
  RateLimitQueueError,
  type RequestOptions,
  ResponseValidationError,
  streamBody,
  TimeoutError,
  ValidationError,
  XError,
} from '@x/core';
export { type IdempotencyOptions, TranscriptionClient, type TranscriptionClientOptions } from './client.js';
export { TranscriptError, TranscriptWaitTimeoutError } from './errors.js';
export type { Files, UploadInput, UploadOptions } from './resources/files.js';
export type { Streaming, TranscriberOptions } from './resources/streaming.js';
export type {
  TranscribeOptions,
  TranscribeParams,
  Transcripts,
  WaitOptions,
} from './resources/transcripts.js';
export * from './schemas/common.js';
export * from './schemas/derived.js';
export * from './schemas/files.js';
export * from './schemas/list.js';
export * from './schemas/params.js';
export * from './schemas/results.js';
// The streaming entry's code stays out of this one (see resources/streaming.ts): types, the token schemas,
// the errors and the audio helpers (plain functions, dropped from a bundle that does not use them).
export type {
  StreamingEncoding,
  StreamingParams,
  StreamingSpeechModel,
  StreamingUpdateConfiguration,
} from './schemas/streaming.js';
export type {
  BeginEvent,
  ErrorMessage,
  SpeechStartedEvent,
  StreamingServerMessage,
  StreamingWord,
  TerminationEvent,
  TurnEvent,
  WarningEvent,
} from './schemas/streaming-messages.js';
export * from './schemas/streaming-token.js';
export * from './schemas/transcripts.js';
export * from './schemas/webhooks.js';
export {
  captureMicrophone,
  type MicrophoneCapture,
  type MicrophoneOptions,
} from './streaming/audio/microphone.js';
export { float32ToPcm16, pcm16ToFloat32 } from './streaming/audio/pcm.js';
export { LinearResampler, resampleLinear } from './streaming/audio/resample.js';
export {
  parseWavHeader,
  type ReadWavOptions,
  readWav,
  type WavInfo,
  type WavReader,
  type WavSource,
} from './streaming/audio/wav.js';
export {
  StreamingAudioError,
  StreamingAuthenticationError,
  StreamingConcurrencyError,
  StreamingError,
  StreamingInvalidMessageError,
  StreamingServerError,
  StreamingSessionExpiredError,
} from './streaming/errors.js';
export type { CloseOptions, StreamingTranscriberEvents } from './streaming/events.js';
export type { AudioChunk } from './streaming/framer.js';
export type { StreamingTranscriberOptions, TokenSource } from './streaming/options.js';
export type { StreamingTranscriber } from './streaming/transcriber.js';
export { isTranscriptReady, parseWebhook, verifyWebhook, type WebhookAuthHeader } from './webhooks.js';
