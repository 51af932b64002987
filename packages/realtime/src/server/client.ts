import {
  type APIPromise,
  BaseClient,
  type ClientOptions,
  describeType,
  type HeaderSource,
  optionIssues,
  type RateLimitOptions,
  type RequestOptions,
  type ServiceAdapter,
  signerAuth,
  ValidationError,
  type ValidationIssue,
} from '@x/core';
import { name as packageName, version as packageVersion } from '../../package.json';
import type { Contract, EventDataOf, EventNameOf } from '../shared/contract.js';
import {
  type AuthCredentials,
  authenticateUser,
  authorizeChannel,
  type ChannelAuthorization,
  type PresenceData,
  type UserAuthentication,
  type UserData,
} from './auth.js';
import type { RealtimeContext } from './context.js';
import { decodeMasterKey } from './encryption.js';
import { parseError } from './errors.js';
import { statusInBody } from './internal/error-body.js';
import { type QueueFullPolicy, SendQueue, type SendQueueStats } from './internal/send-queue.js';
import { Channels } from './resources/channels.js';
import { type BatchEvent, Events, type TriggerParams, type TypedBatch } from './resources/events.js';
import { Users } from './resources/users.js';
import type { BatchResult, TriggerResult } from './schemas/events.js';
import { hmacSigner, requestSigner } from './signing.js';
import { type VerifyWebhookOptions, verifyWebhook, type WebhookPayload } from './webhooks.js';

export interface RealtimeServerOptions extends Omit<ClientOptions, 'baseURL' | 'auth'> {
  appId: string | number;
  key: string;
  secret: string;
  /** The API host, e.g. `api-eu.pusher.com` or `localhost` for an emulator; or give `cluster`. */
  host?: string | undefined;
  /** The cluster name (`eu`, `mt1`, `ap1`...): the host becomes `api-{cluster}.pusher.com`. */
  cluster?: string | undefined;
  port?: number | undefined;
  /** Default true (pusher-http-node defaults to false; there is no reason to send a signed request in clear). */
  useTLS?: boolean | undefined;
  /** 32 random bytes, base64: needed to authorize and trigger on `private-encrypted-` channels. */
  encryptionMasterKeyBase64?: string | undefined;
  /** Events whose encoded data is larger are refused before sending. Default 10 240 (the service's 10 KB). */
  maxPayloadBytes?: number | undefined;
  /** Send single-channel triggers of the same tick as `batch_events` calls. Default true. */
  coalesce?: boolean | undefined;
  /**
   * HTTP calls in flight at once (retries included: each attempt takes a slot). Default
   * {@link DEFAULT_CONCURRENCY}. With coalescing, 16 calls carry up to 160 events. Time spent waiting for a
   * slot counts against the attempt's `timeout`: a call that times out in the queue fails with a
   * `TimeoutError` (`phase: 'queue'`) saying it was never sent, and is not retried.
   */
  concurrency?: number | undefined;
  /**
   * Calls allowed to wait for a slot behind those in flight. Default {@link DEFAULT_MAX_QUEUE}. With
   * `queueFull: 'reject'` a slow API then holds at most `concurrency + maxQueue` prepared requests; with
   * `'wait'` the calls past that are held too (see `queueFull`).
   */
  maxQueue?: number | undefined;
  /**
   * When `maxQueue` calls already wait: `'wait'` (default) holds the call, its promise pending, until the
   * queue has room, so code that awaits its triggers slows to the API's pace; `'reject'` fails it at once
   * with `RateLimitQueueError` (`reason: 'queue_full'`), nothing sent, for code that fires without awaiting.
   * Held calls have no bound: each keeps its signed request and body in memory until it is sent, so a loop
   * that fires 100 000 triggers without awaiting them holds 100 000 requests (`queueStats().held`); such
   * code wants `'reject'`, or to await its calls.
   */
  queueFull?: QueueFullPolicy | undefined;
  /**
   * The app's `defineContract(...)`: types `trigger`, `triggerBatch` and `sendToUser` by channel and event,
   * and (unless `validate: 'none'`) refuses a payload its schema rejects with a `ValidationError`, before any request.
   */
  contract?: Contract | undefined;
  /** `send` (default): check payloads against the contract's schemas before sending; `none`: types only. */
  validate?: 'send' | 'none' | undefined;
}

/** The channel `sendToUser` publishes on: a contract types it under `'#server-to-user-{id}'`. */
type UserChannel = `#server-to-user-${string}`;

/**
 * Pusher publishes no per-second limit for the HTTP API (its limits are daily message quotas by plan,
 * answered with 403), so this default only keeps a runaway loop from hammering it: 100 requests a second
 * per client, which with coalescing carries up to 1 000 events a second. `rateLimit: false` turns it off;
 * a `RedisRateLimiter` shares it between processes.
 */
export const DEFAULT_RATE_LIMIT: RateLimitOptions = { limit: 100, interval: '1s' };

/** Default `concurrency`: HTTP calls in flight at once per `RealtimeServer`. */
export const DEFAULT_CONCURRENCY = 16;
/** Default `maxQueue`: calls waiting for a slot. */
export const DEFAULT_MAX_QUEUE = 1000;

/**
 * No `fetch` wrapper: in Node requests take core's native path, and ky over `fetch` only when the user
 * gives one. What Pusher needs beyond core's defaults comes through these hooks: the plain-HTTP advice names
 * `useTLS`, soketi's status-200 errors become typed errors, and each client adds its send queue (below).
 * The per-attempt `auth_signature` is a value core's redactor already derives from the signed query.
 */
const adapter: ServiceAdapter = {
  packageName,
  packageVersion,
  parseError,
  defaultRateLimit: DEFAULT_RATE_LIMIT,
  tlsOption: 'useTLS',
  statusInBody,
};

/**
 * The Pusher Channels HTTP API (publish, query, terminate), channel/user auth and webhooks. `C`, the
 * `contract` option, types what `trigger`, `triggerBatch` and `sendToUser` take.
 */
export class RealtimeServer<
  // Any contract, none in particular: untyped, as without one.
  C extends Contract | undefined = Contract | undefined,
> extends BaseClient<RealtimeServerOptions> {
  readonly appId: string;
  readonly key: string;
  /** `GET /channels...`: occupied channels and presence members. */
  readonly channels: Channels;
  /** `POST /users/{id}/...`. */
  readonly users: Users;
  readonly #events: Events;
  readonly #credentials: AuthCredentials;
  readonly #secret: string;
  readonly #queue: SendQueue;
  /** Set only while `withOptions` builds a clone that keeps this instance's queue. */
  static #inheritedQueue: SendQueue | undefined;

  constructor(options: RealtimeServerOptions & { contract?: C }) {
    const checked = checkOptions(options);
    const {
      appId: _appId,
      key,
      secret,
      host: _host,
      cluster: _cluster,
      port: _port,
      useTLS: _tls,
      encryptionMasterKeyBase64,
      maxPayloadBytes,
      coalesce,
      concurrency,
      maxQueue,
      queueFull,
      contract,
      validate,
      ...core
    } = options;
    const queue =
      RealtimeServer.#inheritedQueue ??
      new SendQueue({
        concurrency: concurrency ?? DEFAULT_CONCURRENCY,
        maxQueue: maxQueue ?? DEFAULT_MAX_QUEUE,
        queueFull: queueFull ?? 'wait',
      });
    const sign = hmacSigner(secret);
    const secrets = encryptionMasterKeyBase64 ? [secret, encryptionMasterKeyBase64] : [secret];
    super(
      {
        ...core,
        baseURL: checked.baseURL,
        auth: signerAuth('pusher-hmac', requestSigner(key, sign), secrets),
      },
      // Every attempt waits for a slot of this client's queue after the rate limiter, and keeps it until
      // its body is read.
      { ...adapter, sendGate: queue },
      options,
    );
    this.appId = String(options.appId);
    this.key = key;
    this.#secret = secret;
    this.#queue = queue;
    this.#credentials = { key, sign, masterKey: checked.masterKey };
    const context: RealtimeContext = {
      client: this,
      appPath: `/apps/${this.appId}`,
      maxPayloadBytes: maxPayloadBytes ?? 10_240,
      masterKey: checked.masterKey,
      coalesce: coalesce ?? true,
    };
    this.#events = new Events(context, validate === 'none' ? undefined : contract);
    this.channels = new Channels(context);
    this.users = new Users(context);
  }

  /** Publishes `data` as event `name` on 1..100 channels (`POST /events`; coalesced into `batch_events`). */
  trigger<Ch extends string, E extends EventNameOf<C, Ch>>(
    channels: Ch | readonly Ch[],
    name: E,
    data: EventDataOf<C, Ch, E>,
    params?: TriggerParams,
    options?: RequestOptions,
  ): APIPromise<TriggerResult> {
    return this.#events.trigger(channels, name, data, params, options);
  }

  /** Publishes several events (`POST /batch_events`), 10 per call, in order. */
  triggerBatch<const T extends readonly BatchEvent[]>(
    events: T & TypedBatch<C, T>,
    options?: RequestOptions,
  ): Promise<BatchResult> {
    return this.#events.triggerBatch(events, options);
  }

  /** Sends an event to one signed-in user, on every connection of theirs. */
  sendToUser<E extends EventNameOf<C, UserChannel>>(
    userId: string,
    name: E,
    data: EventDataOf<C, UserChannel, E>,
    options?: RequestOptions,
  ): APIPromise<TriggerResult> {
    return this.#events.sendToUser(userId, name, data, options);
  }

  /** The body of a channel authorization response: `{ auth, channel_data?, shared_secret? }`. No network. */
  authorizeChannel(
    socketId: string,
    channel: string,
    presenceData?: PresenceData,
  ): Promise<ChannelAuthorization> {
    return authorizeChannel(this.#credentials, socketId, channel, presenceData);
  }

  /** The body of a user authentication response: `{ auth, user_data }`. No network. */
  authenticateUser(socketId: string, user: UserData): Promise<UserAuthentication> {
    return authenticateUser(this.#credentials, socketId, user);
  }

  /** Verifies a webhook signed with this app's key and secret and returns its typed events. */
  verifyWebhook(
    rawBody: string | Uint8Array,
    headers: HeaderSource,
    options: VerifyWebhookOptions = {},
  ): Promise<WebhookPayload> {
    return verifyWebhook(rawBody, headers, { ...options, tokens: { key: this.key, secret: this.#secret } });
  }

  /**
   * The same server with some options changed. The clone sends through this one's queue, as core shares
   * its limiter, so `concurrency` bounds both together; one that sets a queue option gets a queue of its own.
   */
  override withOptions(overrides: Partial<RealtimeServerOptions & { contract?: C }>): this {
    const ownQueue = ['concurrency', 'maxQueue', 'queueFull'].some((name) => name in overrides);
    RealtimeServer.#inheritedQueue = ownQueue ? undefined : this.#queue;
    try {
      return super.withOptions(overrides);
    } finally {
      RealtimeServer.#inheritedQueue = undefined;
    }
  }

  /** HTTP calls in flight, queued for a slot, and held behind a full queue, now (see `concurrency`). */
  queueStats(): SendQueueStats {
    return this.#queue.stats();
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), appId: this.appId, key: this.key };
  }
}

// RFC 3986 `pchar` without `%`: the characters a path segment carries unencoded. Anything else would go out
// percent-encoded, and soketi 1.6.1 routes the encoded text (`caf%C3%A9`), so the app is never found.
const APP_ID = /^[A-Za-z0-9\-._~!$&'()*+,;=:@]+$/;

/**
 * Pusher's app ids are numeric, but self-hosted servers take any string (soketi's default app is `app-id`,
 * Reverb and sockudo use whatever the config says), so any id a server can route is accepted. What is
 * refused is what would change the URL rather than name an app: the id becomes one path segment of
 * `/apps/{appId}/...`, and the server signs the path as sent.
 */
function appIdIssue(appId: unknown): string | undefined {
  if (typeof appId === 'number') {
    return Number.isSafeInteger(appId) && appId >= 0
      ? undefined
      : `must be a non-negative integer or a string, received ${appId}`;
  }
  if (typeof appId !== 'string') {
    return `is required: the app id from the dashboard or the server's config (a string or a number), received ${describeType(appId)}`;
  }
  if (appId.trim() === '')
    return "is required: the app id from the dashboard or the server's config, received an empty string";
  if (appId.length > 200) return `must be at most 200 characters, received ${appId.length}`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
  if (/[\s\u0000-\u001f\u007f]/.test(appId)) return 'must not contain spaces or control characters';
  if (appId === '.' || appId === '..')
    return 'must not be . or ..: it is one segment of the URL path /apps/{appId}';
  if (!APP_ID.test(appId))
    return `may hold only letters, digits and - . _ ~ ! $ & ' ( ) * + , ; = : @ (received ${JSON.stringify(appId).slice(0, 60)}): it is sent as is, one segment of the URL path /apps/{appId}, and soketi does not decode a percent-encoded id`;
  return undefined;
}

/** A host name or IP address, with an optional port: no scheme, no path. */
const HOST = /^[A-Za-z0-9.-]+(:\d+)?$|^\[[0-9a-fA-F:.]+\](:\d+)?$/;

function checkOptions(options: RealtimeServerOptions): {
  baseURL: string;
  masterKey: Uint8Array | undefined;
} {
  const issues: ValidationIssue[] = [];
  // Types first, naming what was received (`port: expected a number >= 0, received a string ("8787")`); the
  // checks of range and form below skip an option whose type is already wrong.
  const typeIssues = optionIssues(options, {
    host: 'string',
    cluster: 'string',
    port: 'number',
    useTLS: 'boolean',
    encryptionMasterKeyBase64: 'string',
    maxPayloadBytes: 'number',
    coalesce: 'boolean',
    concurrency: 'number',
    maxQueue: 'number',
  });
  const wrongType = new Set(typeIssues.map((issue) => issue.path));
  const nonEmpty = (field: 'key' | 'secret', what: string) => {
    if (typeof options[field] !== 'string' || options[field].trim() === '')
      issues.push({ path: field, message: `is required (${what})` });
  };
  const appIdProblem = appIdIssue(options.appId);
  if (appIdProblem) issues.push({ path: 'appId', message: appIdProblem });
  nonEmpty('key', 'the app key, the one pusher-js is given');
  nonEmpty('secret', 'the app secret; keep it on the server');
  let host: string | undefined;
  issues.push(...typeIssues);
  if (options.host !== undefined && options.cluster !== undefined) {
    issues.push({ path: 'host', message: 'give host or cluster, not both' });
  } else if (options.host !== undefined) {
    if (typeof options.host === 'string' && HOST.test(options.host)) host = options.host;
    else if (!wrongType.has('host')) {
      issues.push({
        path: 'host',
        message: `must be a host name such as api-eu.pusher.com, without scheme or path (got ${JSON.stringify(options.host).slice(0, 60)}); use useTLS and port for the rest`,
      });
    }
  } else if (options.cluster !== undefined) {
    if (typeof options.cluster === 'string' && /^[a-z0-9-]+$/.test(options.cluster))
      host = `api-${options.cluster}.pusher.com`;
    else if (!wrongType.has('cluster'))
      issues.push({ path: 'cluster', message: 'must be a cluster name such as eu, mt1 or ap1' });
  } else {
    issues.push({ path: 'cluster', message: 'is required (or host): e.g. cluster: "eu"' });
  }
  const { port } = options;
  if (port !== undefined && !wrongType.has('port') && !(Number.isInteger(port) && port > 0 && port < 65_536))
    issues.push({ path: 'port', message: `must be an integer 1..65535, received ${port}` });
  const max = options.maxPayloadBytes;
  if (max !== undefined && !wrongType.has('maxPayloadBytes') && !(Number.isInteger(max) && max > 0))
    issues.push({ path: 'maxPayloadBytes', message: `must be a positive integer, received ${max}` });
  const { concurrency, maxQueue, queueFull } = options;
  if (
    concurrency !== undefined &&
    !wrongType.has('concurrency') &&
    !(Number.isSafeInteger(concurrency) && concurrency >= 1)
  )
    issues.push({ path: 'concurrency', message: `must be an integer >= 1, received ${concurrency}` });
  if (
    maxQueue !== undefined &&
    !wrongType.has('maxQueue') &&
    !(Number.isSafeInteger(maxQueue) && maxQueue >= 0)
  )
    issues.push({ path: 'maxQueue', message: `must be an integer >= 0, received ${maxQueue}` });
  if (queueFull !== undefined && queueFull !== 'wait' && queueFull !== 'reject')
    issues.push({
      path: 'queueFull',
      message: `must be 'wait' or 'reject', received ${describeType(queueFull)}`,
    });
  let masterKey: Uint8Array | undefined;
  if (options.encryptionMasterKeyBase64 !== undefined && !wrongType.has('encryptionMasterKeyBase64')) {
    const decoded = decodeMasterKey(options.encryptionMasterKeyBase64);
    if (typeof decoded === 'string') issues.push({ path: 'encryptionMasterKeyBase64', message: decoded });
    else masterKey = decoded;
  }
  if (issues.length > 0 || host === undefined) throw new ValidationError('RealtimeServer options', issues);
  const url = new URL(`${options.useTLS === false ? 'http' : 'https'}://${host}`);
  if (port !== undefined) url.port = String(port);
  return { baseURL: url.origin, masterKey };
}
