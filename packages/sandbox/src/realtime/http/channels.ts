import type { Reply } from '../../kit/reply.js';
import type { RealtimeApp } from '../model/apps.js';
import type { Channel } from '../model/channels.js';
import type { RealtimeHub } from '../model/hub.js';
import { type ChannelKind, channelNameProblem, channelType } from '../protocol/names.js';
import { fail, ok } from './respond.js';

const ATTRIBUTES = new Set(['user_count', 'subscription_count', 'cache']);

/** `info=user_count,subscription_count` as a set; unknown attribute names are refused. */
export function parseInfo(info: unknown): { ok: true; value: Set<string> } | { ok: false; message: string } {
  if (info === undefined || info === '') return { ok: true, value: new Set() };
  if (typeof info !== 'string') return { ok: false, message: 'info must be a comma-separated string' };
  const names = info.split(',').map((s) => s.trim());
  const unknown = names.find((n) => !ATTRIBUTES.has(n));
  if (unknown !== undefined) {
    return {
      ok: false,
      message: `info: unknown attribute "${unknown.slice(0, 40)}" (user_count, subscription_count, cache)`,
    };
  }
  return { ok: true, value: new Set(names) };
}

/**
 * `subscription_count` exists only for apps with subscription counting enabled (Pusher's docs: asking for it
 * otherwise is an error), so a client cannot come to rely on a number the real app would not give it.
 */
export function countingProblem(info: Set<string>, app: RealtimeApp): string | null {
  return info.has('subscription_count') && !app.subscriptionCounting
    ? 'info=subscription_count needs subscription counting, which is not enabled for this app'
    : null;
}

export function channelAttributes(
  channel: Channel | undefined,
  info: Set<string>,
  kind: ChannelKind,
): Record<string, number> {
  const out: Record<string, number> = {};
  if (info.has('user_count') && kind === 'presence') out.user_count = channel?.members.size ?? 0;
  if (info.has('subscription_count')) out.subscription_count = channel?.subscribers.size ?? 0;
  return out;
}

/** `GET /apps/{id}/channels`: occupied channels, optionally by prefix; `user_count` needs a presence- prefix. */
export function listChannels(hub: RealtimeHub, app: RealtimeApp, params: Record<string, string>): Reply {
  const prefix = params.filter_by_prefix ?? '';
  const info = parseInfo(params.info);
  if (!info.ok) return fail(400, info.message);
  const counting = countingProblem(info.value, app);
  if (counting) return fail(400, counting);
  if (info.value.has('cache')) return fail(400, 'info=cache is only available for a single channel');
  if (info.value.has('user_count') && !prefix.startsWith('presence-')) {
    return fail(
      400,
      'user_count may only be requested for presence channels: add filter_by_prefix=presence-',
    );
  }
  // Channel names are anyone's: `__proto__` must be a key like any other, not the object's prototype.
  const channels: Record<string, Record<string, number>> = Object.create(null);
  for (const channel of hub.channels(app).all()) {
    if (!channel.name.startsWith(prefix)) continue;
    channels[channel.name] = channelAttributes(channel, info.value, channel.type.kind);
  }
  return ok({ channels });
}

/** `GET /apps/{id}/channels/{name}`: occupied, and the attributes asked for. */
export function getChannel(
  hub: RealtimeHub,
  app: RealtimeApp,
  name: string,
  params: Record<string, string>,
): Reply {
  const problem = channelNameProblem(name);
  if (problem) return fail(400, problem);
  const info = parseInfo(params.info);
  if (!info.ok) return fail(400, info.message);
  const counting = countingProblem(info.value, app);
  if (counting) return fail(400, counting);
  const type = channelType(name);
  if (info.value.has('user_count') && type.kind !== 'presence') {
    return fail(400, 'user_count may only be requested for presence channels');
  }
  if (info.value.has('cache') && !type.cache)
    return fail(400, 'cache may only be requested for cache channels');
  const channel = hub.channels(app).get(name);
  const body: Record<string, unknown> = {
    occupied: channel !== undefined,
    ...channelAttributes(channel, info.value, type.kind),
  };
  if (info.value.has('cache')) {
    const cached = hub.channels(app).cache.get(name);
    if (cached) {
      body.cache = { data: cached.data, ttl: Math.max(0, Math.ceil((cached.expiresAt - Date.now()) / 1000)) };
    }
  }
  return ok(body);
}

/** `GET /apps/{id}/channels/{name}/users`: presence channels only. */
export function listUsers(hub: RealtimeHub, app: RealtimeApp, name: string): Reply {
  const problem = channelNameProblem(name);
  if (problem) return fail(400, problem);
  if (channelType(name).kind !== 'presence')
    return fail(400, 'Users can only be listed for presence channels');
  const channel = hub.channels(app).get(name);
  return ok({ users: [...(channel?.members.keys() ?? [])].map((id) => ({ id })) });
}
