import { checkRateLimit, type RateLimit } from '../../kit/rate-windows.js';
import type { SubscriptionCountThrottle } from './counts.js';
import type { RealtimeWebhookOptions, RealtimeWebhookTiming } from './webhooks.js';

/** Every limit the emulator applies, decided once from the options (see `RealtimeEmulatorOptions`). */
export interface RealtimeSettings {
  activityTimeoutSeconds: number;
  pongTimeoutMs: number;
  maxPresenceMembers: number;
  maxPresenceUserInfoBytes: number;
  maxPayloadBytes: number;
  clientEventsPerSecond: number;
  maxSubscriptionsPerConnection: number;
  maxBufferedBytes: number;
  maxFrameBytes: number;
  httpRateLimit: RateLimit | false;
  timestampToleranceSeconds: number;
  cacheTtlMs: number;
  authorizedConnectionTimeoutMs: number;
  maxWatchlistSize: number;
  subscriptionCountThrottle: SubscriptionCountThrottle;
  webhooks: RealtimeWebhookOptions & RealtimeWebhookTiming;
}

export interface RealtimeSettingsOptions {
  activityTimeout?: number;
  pongTimeoutMs?: number;
  maxPresenceMembers?: number;
  maxPresenceUserInfoBytes?: number;
  maxPayloadBytes?: number;
  clientEventsPerSecond?: number;
  maxSubscriptionsPerConnection?: number;
  maxBufferedBytes?: number;
  httpRateLimit?: RateLimit | false;
  timestampToleranceSeconds?: number;
  cacheTtlMs?: number;
  /**
   * For apps with `authorizedConnections`: how long a connection has to sign in or subscribe to a private or
   * presence channel before it is closed with 4009. Default 30 000 ms.
   */
  authorizedConnectionTimeoutMs?: number;
  /** User ids a signed-in user's `watchlist` may hold; a longer one refuses the signin (4009). Default 100. */
  maxWatchlistSize?: number;
  /** How `pusher_internal:subscription_count` is throttled on large channels. Default 100 subscribers, 5000 ms. */
  subscriptionCountThrottle?: Partial<SubscriptionCountThrottle>;
  webhooks?: Partial<RealtimeWebhookOptions & RealtimeWebhookTiming>;
}

/** A refused value as the error shows it: `String()` itself throws for some objects ({toString: []}, null prototypes). */
function shown(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

function positive(name: string, value: number | undefined, fallback: number, integer = true): number {
  const v = value ?? fallback;
  if (!Number.isFinite(v) || v <= 0 || (integer && !Number.isSafeInteger(v))) {
    throw new RangeError(
      `realtime: ${name} must be a positive ${integer ? 'integer' : 'number'}, got ${shown(v)}`,
    );
  }
  return v;
}

/** Zero allowed (no delay); used for the delays tests shrink to nothing. */
function nonNegative(name: string, value: number | undefined, fallback: number): number {
  const v = value ?? fallback;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
    throw new RangeError(`realtime: ${name} must be a non-negative integer, got ${shown(v)}`);
  }
  return v;
}

export function resolveSettings(o: RealtimeSettingsOptions): RealtimeSettings {
  const maxPayloadBytes = positive('maxPayloadBytes', o.maxPayloadBytes, 10_240);
  const httpRateLimit = o.httpRateLimit === undefined ? { limit: 1000, intervalMs: 1000 } : o.httpRateLimit;
  if (httpRateLimit) checkRateLimit(httpRateLimit);
  const w = o.webhooks ?? {};
  const c = o.subscriptionCountThrottle ?? {};
  if (typeof c !== 'object' || c === null || Array.isArray(c)) {
    throw new TypeError(
      'realtime: subscriptionCountThrottle must be { largeChannelSubscribers?, intervalMs? }',
    );
  }
  return {
    activityTimeoutSeconds: positive('activityTimeout', o.activityTimeout, 120),
    pongTimeoutMs: positive('pongTimeoutMs', o.pongTimeoutMs, 30_000),
    maxPresenceMembers: positive('maxPresenceMembers', o.maxPresenceMembers, 100),
    maxPresenceUserInfoBytes: positive('maxPresenceUserInfoBytes', o.maxPresenceUserInfoBytes, 1024),
    maxPayloadBytes,
    clientEventsPerSecond: positive('clientEventsPerSecond', o.clientEventsPerSecond, 10),
    maxSubscriptionsPerConnection: positive(
      'maxSubscriptionsPerConnection',
      o.maxSubscriptionsPerConnection,
      1000,
    ),
    maxBufferedBytes: positive('maxBufferedBytes', o.maxBufferedBytes, 1024 * 1024),
    // Room for the envelope, the channel name and the auth strings around a full-size payload.
    maxFrameBytes: maxPayloadBytes + 8 * 1024,
    httpRateLimit,
    timestampToleranceSeconds: positive('timestampToleranceSeconds', o.timestampToleranceSeconds, 600),
    cacheTtlMs: positive('cacheTtlMs', o.cacheTtlMs, 30 * 60_000),
    // Pusher's page gives no number ("kicked off after a timeout",
    // https://pusher.com/docs/channels/using_channels/authorized-connections); 30 s is what users report
    // (https://stackoverflow.com/questions/73421901: clients not authorized to a private channel within 30 s
    // are disconnected when the dashboard's "Enable authorized connections" is on).
    authorizedConnectionTimeoutMs: positive(
      'authorizedConnectionTimeoutMs',
      o.authorizedConnectionTimeoutMs,
      30_000,
    ),
    // "a watchlist of up to 100 user IDs": a third-party AsyncAPI description of Pusher's protocol
    // (https://events.apis.io/channels/pusher/pusher-signin/); Pusher's own watchlist page gives no number.
    maxWatchlistSize: positive('maxWatchlistSize', o.maxWatchlistSize, 100),
    subscriptionCountThrottle: {
      largeChannelSubscribers: positive(
        'subscriptionCountThrottle.largeChannelSubscribers',
        c.largeChannelSubscribers,
        100,
      ),
      intervalMs: positive('subscriptionCountThrottle.intervalMs', c.intervalMs, 5000),
    },
    webhooks: {
      batchWindowMs: positive('webhooks.batchWindowMs', w.batchWindowMs, 50),
      maxBatchEvents: positive('webhooks.maxBatchEvents', w.maxBatchEvents, 20),
      attempts: positive('webhooks.attempts', w.attempts, 8),
      retryDelayMs: positive('webhooks.retryDelayMs', w.retryDelayMs, 1000),
      maxRetryDelayMs: positive('webhooks.maxRetryDelayMs', w.maxRetryDelayMs, 60_000),
      timeoutMs: positive('webhooks.timeoutMs', w.timeoutMs, 10_000),
      // 3 s: https://docs.bird.com/pusher/channels/channels/webhooks/why-is-my-server-not-receiving-webhooks-channels
      leaveDelayMs: nonNegative('webhooks.leaveDelayMs', w.leaveDelayMs, 3000),
    },
  };
}
