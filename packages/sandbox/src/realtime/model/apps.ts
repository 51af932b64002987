import { randomBytes, randomInt } from 'node:crypto';

/** The fixed app of a sandbox started without `apps` or `randomKeys`, so examples can name it. */
export const REALTIME_DEV_APP = {
  appId: '100001',
  key: 'sandbox_dev_realtime_key',
  secret: 'sandbox_dev_realtime_secret',
} as const;

export interface RealtimeWebhookTarget {
  url: string;
  /** Several events per POST, collected for `batchWindowMs`; otherwise one event per POST (Pusher's default). */
  batch?: boolean;
}

export interface RealtimeAppOptions {
  appId: string;
  key: string;
  secret: string;
  /** Client events (`client-*` on private and presence channels). Default true. */
  enableClientMessages?: boolean;
  /** `pusher_internal:subscription_count` to subscribers and `subscription_count` webhooks. Default false. */
  subscriptionCounting?: boolean;
  webhooks?: RealtimeWebhookTarget;
  /** Open connections at once; the next one is closed with 4004. Default: no cap. */
  maxConnections?: number;
  /**
   * "Enable authorized connections": a connection that neither signs in nor subscribes to a private or
   * presence channel within `authorizedConnectionTimeoutMs` is closed with 4009. Default false, as in Pusher.
   */
  authorizedConnections?: boolean;
  /** `pusher_internal:watchlist_events` to signed-in users with a `watchlist`. Default false, as in Pusher. */
  watchlistEvents?: boolean;
}

/** An app as the emulator runs it: every option decided. */
export interface RealtimeApp {
  appId: string;
  key: string;
  secret: string;
  enableClientMessages: boolean;
  subscriptionCounting: boolean;
  webhooks: RealtimeWebhookTarget | null;
  maxConnections: number;
  authorizedConnections: boolean;
  watchlistEvents: boolean;
}

function checkApp(app: RealtimeAppOptions): void {
  for (const field of ['appId', 'key', 'secret'] as const) {
    if (typeof app[field] !== 'string' || app[field].length === 0) {
      throw new TypeError(`realtime app: ${field} must be a non-empty string`);
    }
  }
  // The key is a path segment (/app/{key}) and the id one too (/apps/{id}): a slash would never route.
  if (/[/?#\s]/.test(app.key) || /[/?#\s]/.test(app.appId)) {
    throw new TypeError('realtime app: appId and key may not contain "/", "?", "#" or spaces');
  }
  if (
    app.maxConnections !== undefined &&
    !(Number.isSafeInteger(app.maxConnections) && app.maxConnections > 0)
  ) {
    throw new RangeError(`realtime app ${app.appId}: maxConnections must be a positive integer`);
  }
  for (const field of [
    'enableClientMessages',
    'subscriptionCounting',
    'authorizedConnections',
    'watchlistEvents',
  ] as const) {
    if (app[field] !== undefined && typeof app[field] !== 'boolean') {
      throw new TypeError(`realtime app ${app.appId}: ${field} must be true or false`);
    }
  }
}

/** The app of a sandbox started without `apps`: `REALTIME_DEV_APP`, or one generated for this run. */
export function defaultRealtimeApp(randomKeys: boolean): RealtimeAppOptions {
  return randomKeys
    ? {
        appId: String(randomInt(100_000, 1_000_000)),
        key: randomBytes(10).toString('hex'),
        secret: randomBytes(10).toString('hex'),
      }
    : { ...REALTIME_DEV_APP };
}

/** Decides every app's options; throws on duplicates so a key or id always names one app. */
export function resolveApps(
  apps: readonly RealtimeAppOptions[] | undefined,
  randomKeys: boolean,
): RealtimeApp[] {
  const given: RealtimeAppOptions[] = apps?.length ? [...apps] : [defaultRealtimeApp(randomKeys)];
  const ids = new Set<string>();
  const keys = new Set<string>();
  return given.map((app) => {
    checkApp(app);
    if (ids.has(app.appId)) throw new TypeError(`realtime app: appId ${app.appId} is given twice`);
    if (keys.has(app.key)) throw new TypeError(`realtime app: key ${app.key} is given twice`);
    ids.add(app.appId);
    keys.add(app.key);
    return {
      appId: app.appId,
      key: app.key,
      secret: app.secret,
      enableClientMessages: app.enableClientMessages ?? true,
      subscriptionCounting: app.subscriptionCounting ?? false,
      webhooks: app.webhooks ? { url: app.webhooks.url, batch: app.webhooks.batch ?? false } : null,
      maxConnections: app.maxConnections ?? Number.POSITIVE_INFINITY,
      // Both are dashboard switches Pusher leaves off: https://pusher.com/docs/channels/using_channels/authorized-connections
      // and https://pusher.com/docs/channels/using_channels/watchlist-events ("you must enable them for your application").
      authorizedConnections: app.authorizedConnections ?? false,
      watchlistEvents: app.watchlistEvents ?? false,
    };
  });
}
