/**
 * `@x/realtime/server`: the Pusher Channels HTTP API, channel and user auth, and webhooks, on Web Crypto and
 * `fetch` only, so it runs in Node, Deno, Bun and edge workers alike.
 */
export {
  AbortError,
  APIError,
  AuthenticationError,
  BadRequestError,
  BatchError,
  ConnectionError,
  InternalServerError,
  type Logger,
  type LogLevel,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  type RateLimiter,
  type RateLimitOptions,
  RateLimitQueueError,
  type RequestOptions,
  ResponseValidationError,
  TimeoutError,
  ValidationError,
  type WithResponse,
  XError,
} from '@x/core';
export type { ChannelAuthorization, PresenceData, UserAuthentication, UserData } from './server/auth.js';
export { DEFAULT_RATE_LIMIT, RealtimeServer, type RealtimeServerOptions } from './server/client.js';
export { type WebhookFailure, WebhookVerificationError } from './server/errors.js';
export type { QueueFullPolicy, SendQueueStats } from './server/internal/send-queue.js';
export type {
  ChannelAttribute,
  Channels,
  GetChannelParams,
  ListChannelsParams,
} from './server/resources/channels.js';
export type { BatchEvent, TriggerParams, TypedBatch } from './server/resources/events.js';
export type { Users } from './server/resources/users.js';
export * from './server/schemas/channels.js';
export * from './server/schemas/events.js';
export * from './server/schemas/users.js';
export * from './server/schemas/webhooks.js';
export type { HexSigner } from './server/signing.js';
export { hmacSigner, type SignedQuery, type SignRequestInput, signQuery } from './server/signing.js';
export {
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookPayload,
  type WebhookToken,
} from './server/webhooks.js';
export {
  type Contract,
  type ContractShape,
  defineContract,
  type EventDataOf,
  type EventNameOf,
  type EventType,
  event,
  type StandardSchemaV1,
} from './shared/contract.js';
