/**
 * The HTTP API clients the benchmarks point at the sandbox child: ours and the official `pusher`, both for
 * the child's app over plain HTTP, so every bench measures the same setup and differs only in its options.
 */
import PusherServer from 'pusher';
import { RealtimeServer, type RealtimeServerOptions } from '../src/server.js';
import type { SandboxReady } from './sandbox-child.js';

/** A `RealtimeServer` for the sandbox child's app, with `options` (coalescing, rate limit, retries) on top. */
export function sandboxServer(
  rt: SandboxReady,
  options: Partial<RealtimeServerOptions> = {},
): RealtimeServer {
  const url = new URL(rt.url);
  return new RealtimeServer({
    appId: rt.appId,
    key: rt.key,
    secret: rt.secret,
    host: url.hostname,
    port: Number(url.port),
    useTLS: false,
    ...options,
  });
}

/** The official server SDK (`pusher`) for the same app. */
export function sandboxPusher(rt: SandboxReady): PusherServer {
  const url = new URL(rt.url);
  return new PusherServer({
    appId: rt.appId,
    key: rt.key,
    secret: rt.secret,
    host: url.hostname,
    port: url.port,
    useTLS: false,
  });
}
