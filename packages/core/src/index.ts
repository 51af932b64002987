/**
 * `@x/core`. Entry convention: explicit named exports, zod schemas as `<name>Schema`, all of `ERROR_CLASSES`.
 */
export { APIPromise, type WithResponse } from './api-promise.js';
export {
  type AuthStrategy,
  type BasicOptions,
  basicAuth,
  bearerAuth,
  type CredentialOptions,
  composeAuth,
  headerAuth,
  type PreparedRequest,
  queryAuth,
  Secret,
  signerAuth,
} from './auth.js';
export {
  fileBody,
  isStreamBody,
  isStreamSource,
  type StreamBody,
  type StreamBodyOptions,
  type StreamSource,
  streamBody,
} from './body.js';
export { BaseClient } from './client.js';
export { type Check as CompiledCheck, compileCheck } from './compiled-check.js';
export { ERROR_CLASSES } from './error-classes.js';
export type { XErrorOptions } from './errors.js';
export {
  AbortError,
  APIError,
  type APIErrorInit,
  AuthenticationError,
  BadRequestError,
  BatchError,
  type CallPhase,
  ConflictError,
  ConnectionError,
  type ErrorDetails,
  FileError,
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
  type TimeoutKind,
  UnprocessableEntityError,
  ValidationError,
  type ValidationIssue,
  XError,
} from './errors.js';
export {
  canonicalJson,
  DEFAULT_IDEMPOTENCY_LEASE_MS,
  DEFAULT_IDEMPOTENCY_TTL_MS,
  type IdempotentCall,
  idempotencyKeyIssue,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  provablyUnsent,
  runIdempotent,
  sha256Hex,
} from './idempotency.js';
export {
  IdempotencyAmbiguousError,
  IdempotencyConflictError,
  IdempotencyError,
  IdempotencyPendingError,
  IdempotencyStoreError,
} from './idempotency-errors.js';
export {
  type IdempotencyRecord,
  type IdempotencyStore,
  MemoryIdempotencyStore,
  type ReserveRequest,
  type ReserveResult,
} from './idempotency-store.js';
export { REDACTED, redactUrl } from './internal/redact.js';
export { jsonTextDepth, jsonValueIssue, valueDeeperThan } from './json-depth.js';
export type { Logger, LogLevel, RedactingLogger } from './log.js';
export { md5Hex } from './md5.js';
export {
  credentialIssue,
  describeType,
  headerIssues,
  type OptionKind,
  optionIssues,
} from './option-checks.js';
export type {
  ClientOptions,
  Hooks,
  QueryValue,
  RequestEvent,
  RequestOptions,
  RequestSpec,
  ResponseEvent,
  RetryEvent,
  ServiceAdapter,
  SpecSource,
} from './options.js';
export type { FetchPage, PageTrail } from './pagination.js';
export {
  cursorStrategy,
  Page,
  type PageInfo,
  PagePromise,
  type PageStrategy,
  pageNumberStrategy,
} from './pagination.js';
export {
  type Duration,
  isRateLimiter,
  MemoryRateLimiter,
  parseDuration,
  type RateLimitClock,
  type RateLimiter,
  type RateLimitOptions,
  type ReleaseSlot,
} from './rate-limit.js';
export type { RetryContext } from './retry.js';
export {
  type AttemptOutcome,
  backoffDelay,
  DEFAULT_RETRY,
  decideRetry,
  isIdempotentMethod,
  parseRetryAfter,
  RetryBudget,
  type RetryDecision,
  type RetryOptions,
  serverBackoffMs,
} from './retry.js';
export { sleepUnlessAborted } from './sleep.js';
export type { FetchLike, Progress } from './transport.js';
export type { ResponseContext } from './validation.js';
export {
  openEnum,
  type ParseInputOptions,
  parseInput,
  parseResponse,
  toIssues,
  type ValidationMode,
} from './validation.js';
export { DEFAULT_POLL_SCHEDULE, type PollSchedule, pollDelay, type WaitForOptions, waitFor } from './wait.js';
export {
  type HeaderSource,
  type HmacAlgorithm,
  hmac,
  readHeader,
  type SignatureEncoding,
  timingSafeEqual,
  type VerifyHmacInput,
  verifyHmac,
} from './webhooks.js';
