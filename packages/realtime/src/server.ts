/**
 * `@x/realtime/server`: the Pusher Channels HTTP API, channel and user auth, and webhooks, on Web Crypto and
 * `fetch` only, so it runs in Node, Deno, Bun and edge workers alike.
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
  type Logger,
  type LogLevel,
  NotFoundError,
  PaginationError,
  PermissionDeniedError,
  RateLimitError,
  type RateLimiter,
  type RateLimitOptions,
  RateLimitQueueError,
  RateLimitStoreError,
  RealtimeError,
  RedirectError,
  type RequestOptions,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
  UnprocessableEntityError,
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
export {
  type ChannelInfo,
  type ChannelList,
  type ChannelUsers,
  channelCache as channelCacheSchema,
  channelInfo as channelInfoSchema,
  channelList as channelListSchema,
  channelUsers as channelUsersSchema,
} from './server/schemas/channels.js';
export {
  type BatchResult,
  batchResult as batchResultSchema,
  type ChannelAttributes,
  channelAttributes as channelAttributesSchema,
  type TriggerResult,
  triggerResult as triggerResultSchema,
} from './server/schemas/events.js';
export {
  type TerminateResult,
  terminateResult as terminateResultSchema,
} from './server/schemas/users.js';
export {
  cacheMiss as cacheMissSchema,
  channelOccupied as channelOccupiedSchema,
  channelVacated as channelVacatedSchema,
  clientEvent as clientEventSchema,
  memberAdded as memberAddedSchema,
  memberRemoved as memberRemovedSchema,
  subscriptionCount as subscriptionCountSchema,
  type UnknownWebhookEvent,
  unknownWebhookEvent as unknownWebhookEventSchema,
  type WebhookEvent,
  type WebhookEventName,
  webhookBody as webhookBodySchema,
  webhookEvent as webhookEventSchema,
} from './server/schemas/webhooks.js';
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
