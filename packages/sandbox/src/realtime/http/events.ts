import type { Reply } from '../../kit/reply.js';
import type { RealtimeApp } from '../model/apps.js';
import type { RealtimeHub } from '../model/hub.js';
import {
  channelNameProblem,
  channelType,
  eventNameProblem,
  isReservedEventName,
  RESERVED_EVENT_NAME,
} from '../protocol/names.js';
import { channelAttributes, countingProblem, parseInfo } from './channels.js';
import { fail, ok } from './respond.js';

/** Pusher's documented limits: 100 channels per trigger, 10 events per batch. */
export const MAX_TRIGGER_CHANNELS = 100;
export const MAX_BATCH_EVENTS = 10;
const SOCKET_ID = /^\d+\.\d+$/;

interface Trigger {
  name: string;
  data: string;
  channels: string[];
  socketId?: string;
  info: Set<string>;
}

type Parsed = { ok: true; trigger: Trigger } | { ok: false; reply: Reply };

/** Validates one event of `/events` or of a batch; `where` prefixes messages in a batch ("batch[3]: ..."). */
function parseTrigger(hub: RealtimeHub, input: unknown, where: string): Parsed {
  const bad = (message: string, status = 400): Parsed => ({
    ok: false,
    reply: fail(status, where + message),
  });
  if (!input || typeof input !== 'object' || Array.isArray(input)) return bad('expected a JSON object');
  const e = input as Record<string, unknown>;
  const nameProblem = eventNameProblem(e.name);
  if (nameProblem) return bad(`name: ${nameProblem}`);
  if (isReservedEventName(e.name as string)) return bad(RESERVED_EVENT_NAME);
  if (typeof e.data !== 'string') return bad('data must be a string (encode objects as JSON first)');
  let channels: string[];
  if (e.channels !== undefined) {
    if (!Array.isArray(e.channels) || e.channels.length === 0)
      return bad('channels must be a non-empty array');
    if (e.channels.length > MAX_TRIGGER_CHANNELS) {
      return bad(`channels: ${e.channels.length} given; the limit is ${MAX_TRIGGER_CHANNELS}`);
    }
    channels = e.channels as string[];
  } else if (e.channel !== undefined) {
    channels = [e.channel as string];
  } else {
    return bad('channels or channel is required');
  }
  for (const channel of channels) {
    const problem = channelNameProblem(channel, { userChannel: true });
    if (problem) return bad(`channels: ${problem}`);
  }
  if (e.socket_id !== undefined && (typeof e.socket_id !== 'string' || !SOCKET_ID.test(e.socket_id))) {
    return bad('socket_id must look like "123.456"');
  }
  const info = parseInfo(e.info);
  if (!info.ok) return bad(info.message);
  const bytes = Buffer.byteLength(e.data);
  if (bytes > hub.settings.maxPayloadBytes) {
    return bad(`data is ${bytes} bytes; the limit is ${hub.settings.maxPayloadBytes}`, 413);
  }
  return {
    ok: true,
    trigger: {
      name: e.name as string,
      data: e.data,
      channels,
      ...(typeof e.socket_id === 'string' ? { socketId: e.socket_id } : {}),
      info: info.value,
    },
  };
}

function publish(hub: RealtimeHub, app: RealtimeApp, t: Trigger): void {
  for (const channel of t.channels) {
    hub.publish(app, {
      channel,
      event: t.name,
      data: t.data,
      ...(t.socketId !== undefined ? { exceptSocketId: t.socketId } : {}),
    });
  }
}

/** Per channel, the attributes `info` asked for; `user_count` only on presence channels. */
function infoFor(hub: RealtimeHub, app: RealtimeApp, t: Trigger): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = Object.create(null);
  for (const channel of t.channels) {
    out[channel] = channelAttributes(hub.channels(app).get(channel), t.info, channelType(channel).kind);
  }
  return out;
}

export function triggerEvent(hub: RealtimeHub, app: RealtimeApp, body: unknown): Reply {
  const parsed = parseTrigger(hub, body, '');
  if (!parsed.ok) return parsed.reply;
  const counting = countingProblem(parsed.trigger.info, app);
  if (counting) return fail(400, counting);
  publish(hub, app, parsed.trigger);
  return ok(parsed.trigger.info.size > 0 ? { channels: infoFor(hub, app, parsed.trigger) } : {});
}

/** `batch_events`: every event is checked before any is published, so a bad one publishes nothing. */
export function triggerBatch(hub: RealtimeHub, app: RealtimeApp, body: unknown): Reply {
  const batch = (body as { batch?: unknown } | null)?.batch;
  if (!Array.isArray(batch)) return fail(400, 'batch must be an array of events');
  if (batch.length > MAX_BATCH_EVENTS) {
    return fail(400, `batch has ${batch.length} events; the limit is ${MAX_BATCH_EVENTS}`);
  }
  const triggers: Trigger[] = [];
  for (const [i, item] of batch.entries()) {
    const single =
      item && typeof item === 'object' && 'channels' in item
        ? { ok: false as const, reply: fail(400, `batch[${i}]: use channel (one per event), not channels`) }
        : parseTrigger(hub, item, `batch[${i}]: `);
    if (!single.ok) return single.reply;
    const counting = countingProblem(single.trigger.info, app);
    if (counting) return fail(400, `batch[${i}]: ${counting}`);
    triggers.push(single.trigger);
  }
  for (const t of triggers) publish(hub, app, t);
  if (!triggers.some((t) => t.info.size > 0)) return ok({});
  return ok({ batch: triggers.map((t) => infoFor(hub, app, t)[t.channels[0]!] ?? {}) });
}
