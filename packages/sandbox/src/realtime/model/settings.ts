import { checkRateLimit, type RateLimit } from '../../kit/rate-windows.js';
import type { RealtimeWebhookOptions } from './webhooks.js';

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
  webhooks: RealtimeWebhookOptions;
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
  webhooks?: Partial<RealtimeWebhookOptions>;
}

function positive(name: string, value: number | undefined, fallback: number, integer = true): number {
  const v = value ?? fallback;
  if (!Number.isFinite(v) || v <= 0 || (integer && !Number.isSafeInteger(v))) {
    throw new RangeError(`realtime: ${name} must be a positive ${integer ? 'integer' : 'number'}, got ${v}`);
  }
  return v;
}

export function resolveSettings(o: RealtimeSettingsOptions): RealtimeSettings {
  const maxPayloadBytes = positive('maxPayloadBytes', o.maxPayloadBytes, 10_240);
  const httpRateLimit = o.httpRateLimit === undefined ? { limit: 1000, intervalMs: 1000 } : o.httpRateLimit;
  if (httpRateLimit) checkRateLimit(httpRateLimit);
  const w = o.webhooks ?? {};
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
    webhooks: {
      batchWindowMs: positive('webhooks.batchWindowMs', w.batchWindowMs, 50),
      attempts: positive('webhooks.attempts', w.attempts, 8),
      retryDelayMs: positive('webhooks.retryDelayMs', w.retryDelayMs, 1000),
      maxRetryDelayMs: positive('webhooks.maxRetryDelayMs', w.maxRetryDelayMs, 60_000),
      timeoutMs: positive('webhooks.timeoutMs', w.timeoutMs, 10_000),
    },
  };
}
