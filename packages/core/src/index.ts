export {
  type AuthStrategy,
  basicAuth,
  bearerAuth,
  composeAuth,
  headerAuth,
  type PreparedRequest,
  queryAuth,
  Secret,
  signerAuth,
} from './auth.js';
export {
  APIPromise,
  BaseClient,
  type ClientOptions,
  type Hooks,
  type QueryValue,
  type RequestEvent,
  type RequestOptions,
  type RequestSpec,
  type ResponseEvent,
  type RetryEvent,
  type ServiceAdapter,
  type SpecSource,
  type WithResponse,
} from './client.js';
export {
  AbortError,
  APIError,
  type APIErrorInit,
  AuthenticationError,
  BadRequestError,
  BatchError,
  ConflictError,
  ConnectionError,
  type ErrorDetails,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RateLimitQueueError,
  RealtimeError,
  ResponseValidationError,
  TimeoutError,
  UnprocessableEntityError,
  ValidationError,
  type ValidationIssue,
  XError,
} from './errors.js';
export { REDACTED, redactUrl } from './internal/redact.js';
export type { Logger, LogLevel } from './log.js';
export {
  cursorStrategy,
  Page,
  type PageInfo,
  PagePromise,
  type PageStrategy,
  pageNumberStrategy,
} from './pagination.js';
export {
  type Clock,
  type Duration,
  isRateLimiter,
  MemoryRateLimiter,
  parseDuration,
  type RateLimiter,
  type RateLimitOptions,
} from './rate-limit.js';
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
export { openEnum, parseInput, parseResponse, toIssues, type ValidationMode } from './validation.js';
export {
  type HmacAlgorithm,
  hmac,
  type SignatureEncoding,
  timingSafeEqual,
  type VerifyHmacInput,
  verifyHmac,
} from './webhooks.js';
