import { type LogLevel, logs } from '@x/core/base';
import type { Contract, ValidateMode } from '../shared/contract.js';
import type { ChannelAuthorization, UserAuthentication } from './auth.js';
import type { BackoffOptions } from './backoff.js';
import { DEFAULT_CLIENT_EVENT_BUFFER } from './client-events.js';
import type { Clock } from './clock.js';
import { ValidationError, type ValidationIssue } from './errors.js';
import type { ClientLogger } from './log.js';
import type { WebSocketFactory } from './socket/websocket.js';

export interface RealtimeClientOptions<C extends Contract | undefined = Contract | undefined> {
  /**
   * The app's `defineContract(...)`: types `subscribe(name).bind` and client events by channel name, and
   * validates payloads with its schemas where `validate` says.
   */
  contract?: C;
  /**
   * Where the contract's schemas run: `receive` drops (and reports as `pusher:validation_error`) an event
   * whose payload fails before any callback sees it; `send` refuses such a client event before it is sent.
   * Default `both`.
   */
  validate?: ValidateMode;
  /** Pusher's cluster, e.g. `eu`: the host becomes `ws-{cluster}.pusher.com`. Needed unless `wsHost` is set. */
  cluster?: string;
  /** Your own server or the sandbox emulator. */
  wsHost?: string;
  /** Port for `ws://` (default 80). */
  wsPort?: number;
  /** Port for `wss://` (default 443). */
  wssPort?: number;
  /** Connect with TLS (default true). A server that answers 4000 switches an unencrypted client to TLS. */
  forceTLS?: boolean;
  /** A prefix before `/app/{key}`, for servers behind a path-routing proxy. */
  wsPath?: string;
  /** How private, presence and encrypted channels are authorized. Default: POST to `/pusher/auth`. */
  channelAuthorization?: ChannelAuthorization;
  /** How `signin()` authenticates the user. Default: POST to `/pusher/user-auth`. */
  userAuthentication?: UserAuthentication;
  /** Ms of silence before the client pings; the server's `activity_timeout` wins when shorter. Default 120000. */
  activityTimeout?: number;
  /** Ms to wait for any frame after a ping before the link is declared dead. Default 30000. */
  pongTimeout?: number;
  /** Ms from opening a socket to the handshake before the attempt counts as failed. Default 10000. */
  connectTimeout?: number;
  /**
   * Ms to wait for the server's answer to `pusher:subscribe` (after authorization). Then the channel emits
   * `pusher:subscription_error` `{type: 'SubscriptionTimeout'}`, `subscribed` rejects, and
   * `client.subscribe(name)` again retries; a late success still subscribes it. Default 10000.
   */
  subscriptionTimeout?: number;
  /** Reconnect delays: full-jitter exponential between 0 and min(maxDelayMs, baseDelayMs·2ⁿ). Default 1 s and 30 s. */
  reconnect?: Partial<BackoffOptions>;
  /** Client events held while reconnecting or rate-limited; beyond it `trigger()` returns false. Default 100. */
  clientEventBuffer?: number;
  /** Builds sockets. Default: the global WebSocket, or `ws` in Node before 22. */
  webSocketFactory?: WebSocketFactory;
  /** Anything shaped like `console`; silent by default. */
  logger?: ClientLogger;
  /** The least severe level passed to `logger`: `debug` adds every state change. Default `warn`. */
  logLevel?: LogLevel;
  /** Testing seam: drives every timer. */
  clock?: Clock;
  /** Testing seam: the jitter source, [0, 1). */
  random?: () => number;
}

/**
 * The defaults, which also give each option's type: `*Port` options are integers 1..65535, the other numbers
 * (ms, a count) finite and >= 0. Checked at construction, so `wsPort: 'abc'` fails there, naming the option,
 * not at connect as "Invalid URL". Kept small (no schema library): it is in every browser bundle.
 */
const DEFAULTS = {
  cluster: '',
  wsHost: '',
  wsPath: '',
  forceTLS: true,
  wsPort: 80,
  wssPort: 443,
  activityTimeout: 120_000,
  pongTimeout: 30_000,
  connectTimeout: 10_000,
  subscriptionTimeout: 10_000,
  clientEventBuffer: DEFAULT_CLIENT_EVENT_BUFFER,
};

export type Settings = RealtimeClientOptions & typeof DEFAULTS;

/**
 * The options with their defaults filled in (null and undefined alike), or a `ValidationError` with an issue
 * for each option of the wrong type or range, e.g. `wsPort: expected integer 1..65535, received string` or `... received number 70000`.
 */
export function settle(key: string, options: RealtimeClientOptions): Settings {
  const settled: Record<string, unknown> = { ...options };
  const issues: ValidationIssue[] =
    typeof key === 'string' && key ? [] : [{ path: 'key', message: 'is required' }];
  for (const [path, fallback] of Object.entries(DEFAULTS)) {
    settled[path] ??= fallback;
    const value = settled[path] as number;
    const want = typeof fallback;
    const port = path.endsWith('Port');
    if (
      typeof value !== want ||
      (want === 'number' &&
        !(port ? Number.isInteger(value) && value > 0 && value < 65_536 : value >= 0 && value < Infinity))
    ) {
      issues.push({
        path,
        message: `expected ${port ? 'integer 1..65535' : want === 'number' ? 'number >= 0' : want}, received ${typeof value}${typeof value === 'number' ? ` ${value}` : ''}`,
      });
    }
  }
  if (!issues[0] && !settled.wsHost && !settled.cluster)
    issues.push({ path: 'cluster', message: 'set cluster or wsHost' });
  // logs() lets nothing through for a threshold that is no level, so a misspelt `logLevel` would silence the
  // client: refused here instead. 'off' is the one level under which even 'error' is not logged.
  const level = settled.logLevel;
  if (level != null && logs('error', level as LogLevel) === (level === 'off'))
    issues.push({ path: 'logLevel', message: 'expected debug, info, warn, error or off' });
  if (issues[0]) throw new ValidationError('options', issues);
  return settled as unknown as Settings;
}
