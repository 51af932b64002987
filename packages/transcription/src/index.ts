export {
  AbortError,
  APIError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  FileError,
  fileBody,
  InternalServerError,
  type Logger,
  type LogLevel,
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
export { TranscriptionClient, type TranscriptionClientOptions } from './client.js';
export { TranscriptError, TranscriptWaitTimeoutError } from './errors.js';
export type { Files, UploadInput, UploadOptions } from './resources/files.js';
export type { Streaming } from './resources/streaming.js';
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
export * from './schemas/streaming.js';
export * from './schemas/streaming-messages.js';
export * from './schemas/transcripts.js';
export * from './schemas/webhooks.js';
export { isTranscriptReady, parseWebhook, verifyWebhook, type WebhookAuthHeader } from './webhooks.js';
