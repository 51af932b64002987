import {
  AbortError,
  APIError,
  AuthenticationError,
  BadRequestError,
  BatchError,
  ConflictError,
  ConnectionError,
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
  UnprocessableEntityError,
  ValidationError,
  XError,
} from './errors.js';
import {
  IdempotencyAmbiguousError,
  IdempotencyConflictError,
  IdempotencyError,
  IdempotencyPendingError,
  IdempotencyStoreError,
} from './idempotency-errors.js';

/**
 * Every error class of @x/core, by name: the one list that each SDK entry built on core re-exports (by
 * name, in its own `export { ... } from '@x/core'`), so `catch (e) { if (e instanceof ConflictError) }`
 * needs no import from core whichever package threw. A hand-kept list drifts: each package's
 * `test/unit/exports.test.ts` compares its entries with this object, and core's compares it with core's
 * own entry, so a new error class fails a test until every entry names it.
 */
export const ERROR_CLASSES = {
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
} as const;
