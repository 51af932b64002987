import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import type { Emulator, EmulatorHandle, NodeEnv } from '../kit/emulator.js';
import { FaultQueue } from '../kit/faults.js';
import { RateWindows } from '../kit/rate-windows.js';
import { RequestStats, type StatsSnapshot } from '../kit/stats.js';
import type { RealtimeHttpFault } from './http/faults.js';
import { handleHttp } from './http/routes.js';
import { type RealtimeApp, type RealtimeAppOptions, resolveApps } from './model/apps.js';
import { RealtimeHub } from './model/hub.js';
import { type RealtimeSettingsOptions, resolveSettings } from './model/settings.js';
import { WebhookDispatcher, type WebhookStats } from './model/webhooks.js';
import { CLOSE } from './protocol/codes.js';
import { acceptSocket, type SocketFaultState } from './ws/accept.js';
import type { Connection, SocketCounters } from './ws/connection.js';

export interface RealtimeEmulatorOptions extends RealtimeSettingsOptions {
  /** The apps served (each its own key, secret, channels). Default: one app, `REALTIME_DEV_APP`. */
  apps?: RealtimeAppOptions[];
  /** Without `apps`: one app with a generated id, key and secret instead of `REALTIME_DEV_APP`. */
  randomKeys?: boolean;
}

export interface RealtimeStats {
  /** The HTTP API's requests, rate-limited requests and arrival times. */
  http: StatsSnapshot;
  /** Connections accepted since start (or `resetStats`), open now, frames in and out. */
  sockets: SocketCounters & { open: number };
  webhooks: WebhookStats;
}

export interface RealtimeChannelSummary {
  appId: string;
  name: string;
  subscriptionCount: number;
  /** Presence channels only. */
  userCount?: number;
}

export interface RealtimeSandbox extends EmulatorHandle<RealtimeHttpFault, RealtimeStats> {
  /** The HTTP API's base (what the server SDK's host and port point at). */
  readonly url: string;
  /** `ws://` or `wss://` host and port; clients connect to `${wsUrl}/app/${key}?protocol=7`. */
  wsUrl: string;
  /** The first app's credentials. */
  appId: string;
  key: string;
  secret: string;
  apps: RealtimeApp[];
  /** Open connections, for one app (by id) or all. */
  connections(appId?: string): number;
  /** Occupied channels, for one app (by id) or all. */
  channels(appId?: string): RealtimeChannelSummary[];
  /** Destroys every socket without a close frame: clients see 1006, as when a server dies. Returns how many. */
  dropConnections(): number;
  /**
   * Stops answering: no pongs (protocol or `pusher:pong`), no events, nothing read, so clients must notice by
   * their own heartbeat. Lasts `durationMs` when given, otherwise until the returned function is called.
   */
  goSilent(durationMs?: number): () => void;
  /** New connections are closed with 4100 (over capacity, back off) for `durationMs`. */
  refuseConnections(durationMs: number): void;
  /**
   * A restart: every socket is dropped (1006), channels, presence and users are forgotten (apps, cache and
   * delayed leave webhooks kept), and new connections are refused for `refuseMs` (default 0).
   */
  restart(options?: { refuseMs?: number }): void;
  /**
   * Resolves when every webhook has been delivered or given up. Delayed ones (`webhooks.leaveDelayMs`) and
   * waiting batches are sent at once rather than waited for. A `subscription_count` held back by the lock of a
   * large channel (`subscriptionCountThrottle`) is not: it goes out when its lock ends, as in Pusher.
   */
  idle(): Promise<void>;
  /** Closes every connection (4200), forgets channels, caches, faults, rate windows, pending webhooks. */
  reset(): Promise<void>;
}

/** Mounted at `/apps` (the HTTP API), with the protocol 7 socket at `/app/{key}`. */
export interface RealtimeEmulator extends Emulator<RealtimeSandbox> {
  fetch(request: Request, env: NodeEnv): Promise<Response>;
  /** The `/app/{key}` socket handler (also the one entry of `sockets`). */
  handleSocket(ws: WebSocket, request: IncomingMessage): void;
}

export function createRealtimeEmulator(options: RealtimeEmulatorOptions = {}): RealtimeEmulator {
  const settings = resolveSettings(options);
  const apps = resolveApps(options.apps, options.randomKeys ?? false);
  const webhooks = new WebhookDispatcher(settings.webhooks);
  const hub = new RealtimeHub(apps, settings, webhooks);
  const windows = new RateWindows(settings.httpRateLimit);
  const faults = new FaultQueue<RealtimeHttpFault>();
  const stats = new RequestStats();
  const socketFaults: SocketFaultState = { refuseUntil: 0, silent: false };
  const counters: SocketCounters = { opened: 0, messagesIn: 0, messagesOut: 0, slowClosed: 0 };
  const open = new Set<Connection>();
  let homeUrl = '';
  let silenceTimer: NodeJS.Timeout | null = null;

  const speak = () => {
    if (silenceTimer) clearTimeout(silenceTimer);
    silenceTimer = null;
    socketFaults.silent = false;
    for (const connection of [...open]) connection.unsilence();
  };
  const dropAll = () => {
    const all = [...open];
    for (const connection of all) connection.terminate();
    return all.length;
  };

  const sandbox: RealtimeSandbox = {
    get url() {
      return homeUrl;
    },
    get wsUrl() {
      return homeUrl.replace(/^http/, 'ws');
    },
    appId: apps[0]!.appId,
    key: apps[0]!.key,
    secret: apps[0]!.secret,
    apps,
    stats: () => ({
      http: stats.snapshot(),
      sockets: { ...counters, open: open.size },
      webhooks: webhooks.stats(),
    }),
    resetStats() {
      stats.reset();
      Object.assign(counters, { opened: 0, messagesIn: 0, messagesOut: 0, slowClosed: 0 });
    },
    connections(appId) {
      const app = appId === undefined ? undefined : hub.appById(appId);
      if (appId !== undefined && !app) return 0;
      return hub.connectionCount(app);
    },
    channels(appId) {
      const out: RealtimeChannelSummary[] = [];
      for (const app of apps) {
        if (appId !== undefined && app.appId !== appId) continue;
        for (const channel of hub.channels(app).all()) {
          out.push({
            appId: app.appId,
            name: channel.name,
            subscriptionCount: channel.subscribers.size,
            ...(channel.type.kind === 'presence' ? { userCount: channel.members.size } : {}),
          });
        }
      }
      return out;
    },
    injectFault: (fault) => faults.inject(fault),
    dropConnections: dropAll,
    goSilent(durationMs) {
      socketFaults.silent = true;
      for (const connection of open) connection.silence();
      if (silenceTimer) clearTimeout(silenceTimer);
      silenceTimer = durationMs === undefined ? null : setTimeout(speak, durationMs);
      return speak;
    },
    refuseConnections(durationMs) {
      socketFaults.refuseUntil = performance.now() + durationMs;
    },
    restart(restartOptions = {}) {
      speak();
      dropAll();
      hub.clear({ keepCache: true, keepLeaveWebhooks: true });
      socketFaults.refuseUntil = performance.now() + (restartOptions.refuseMs ?? 0);
    },
    idle() {
      hub.flushLeaveWebhooks();
      return webhooks.idle();
    },
    async reset() {
      speak();
      for (const connection of [...open]) connection.close(CLOSE.reconnectNow, 'The sandbox was reset');
      hub.clear();
      faults.clear();
      windows.clear();
      socketFaults.refuseUntil = 0;
      await webhooks.reset();
    },
  };

  const handleSocket = (ws: WebSocket, request: IncomingMessage) =>
    acceptSocket(hub, socketFaults, counters, open, ws, request);
  return {
    name: 'realtime',
    prefixes: ['/apps'],
    fetch: (request, env) => handleHttp({ hub, windows, faults, stats }, request, env),
    // Pusher's HTTP API answers errors as plain text.
    internalError: () => new Response('Internal server error', { status: 500 }),
    sockets: [{ path: '/app/', handle: handleSocket }],
    handleSocket,
    handle: sandbox,
    setHomeUrl(url) {
      homeUrl = url.replace(/\/+$/, '');
    },
    async close() {
      speak();
      dropAll();
      // Drops the delayed leave webhooks and count locks the drop just started: no timer outlives the sandbox.
      hub.clear();
      await webhooks.close();
    },
  };
}
