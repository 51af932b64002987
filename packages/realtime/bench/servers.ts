/**
 * The HTTP API clients the benchmarks point at the sandbox child: ours, the official `pusher`, and `fetch`
 * signed by hand, all for the child's app over plain HTTP, so every bench measures the same setup and
 * differs only in its options.
 */
import { createHash, createHmac } from 'node:crypto';
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

/**
 * The floor: `POST /apps/{app_id}/events` with `fetch`, signed the way the HTTP API reference describes
 * (HMAC-SHA256 over `POST\n<path>\n<sorted query>`, the body's MD5 in the query), in a few lines and with
 * no retries, limits or checks. Resolves the parsed answer (`{}` on success); rejects on a non-2xx.
 */
export function sandboxFetchTrigger(
  rt: SandboxReady,
): (channel: string, event: string, data: unknown) => Promise<unknown> {
  const path = `/apps/${rt.appId}/events`;
  const endpoint = `${rt.url.replace(/\/$/, '')}${path}`;
  return async (channel, event, data) => {
    const body = JSON.stringify({ name: event, channels: [channel], data: JSON.stringify(data) });
    // Already in sorted order: auth_key < auth_timestamp < auth_version < body_md5.
    const query =
      `auth_key=${rt.key}&auth_timestamp=${Math.floor(Date.now() / 1000)}&auth_version=1.0` +
      `&body_md5=${createHash('md5').update(body).digest('hex')}`;
    const signature = createHmac('sha256', rt.secret).update(`POST\n${path}\n${query}`).digest('hex');
    const response = await fetch(`${endpoint}?${query}&auth_signature=${signature}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
    return response.json();
  };
}
