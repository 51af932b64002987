import { ValidationError, type ValidationIssue } from '@x/core';
import { channelKind, channelNameProblem, eventNameProblem } from '../../shared/names.js';
import { utf8Length } from './bytes.js';
import { jsonDataIssue } from './json-depth.js';

/**
 * The rules every event obeys before it is sent (HTTP API reference, pusher-http-node `trigger`): channel
 * and event names, at most 100 channels, a socket id that looks like one, data that JSON can encode and that
 * fits the payload limit, and encryption only for a single channel.
 */

export const MAX_CHANNELS_PER_TRIGGER = 100;
export const MAX_EVENTS_PER_BATCH = 10;
export const SERVER_TO_USER_PREFIX = '#server-to-user-';

/** One event as `batch_events` takes it (wire spelling). */
export interface BatchItem {
  channel: string;
  name: string;
  data: string;
  socket_id?: string;
  info?: string;
}

/** One event as `POST /events` takes it. */
export interface EventBody {
  name: string;
  data: string;
  channels: string[];
  socket_id?: string;
  info?: string;
}

export interface EventInput {
  channels: readonly string[];
  name: string;
  data: unknown;
  socketId?: string | undefined;
  info?: string | readonly string[] | undefined;
}

export interface EventRules {
  maxPayloadBytes: number;
  hasMasterKey: boolean;
  /** `sendToUser` only: its `#server-to-user-` channel is not a name a client may use. */
  internalChannel?: boolean;
}

/** Every problem with one event's input, each under its own path (prefixed for batches: `3.channel`). */
export function eventIssues(input: EventInput, rules: EventRules, prefix = ''): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const at = (path: string) => `${prefix}${path}`;
  const { channels } = input;
  if (channels.length === 0) issues.push({ path: at('channels'), message: 'must name at least one channel' });
  if (channels.length > MAX_CHANNELS_PER_TRIGGER) {
    issues.push({
      path: at('channels'),
      message: `must be at most ${MAX_CHANNELS_PER_TRIGGER} channels per trigger (got ${channels.length}); split them over several calls`,
    });
  }
  channels.forEach((channel, i) => {
    const problem = rules.internalChannel ? null : channelNameProblem(channel);
    if (problem)
      issues.push({ path: at(channels.length === 1 ? 'channel' : `channels.${i}`), message: problem });
  });
  const encrypted = channels.filter((c) => typeof c === 'string' && channelKind(c) === 'encrypted');
  if (encrypted.length > 0 && channels.length > 1) {
    issues.push({
      path: at('channels'),
      message:
        `include the encrypted channel ${encrypted[0]}: each encrypted channel has its own key, so one payload ` +
        'cannot be sent to several channels (the official SDK refuses this too); trigger it separately',
    });
  }
  if (encrypted.length > 0 && !rules.hasMasterKey) {
    issues.push({
      path: 'encryptionMasterKeyBase64',
      message: `is needed to trigger on ${encrypted[0]}: its data is encrypted with a key derived from it`,
    });
  }
  const nameProblem = eventNameProblem(input.name);
  if (nameProblem) issues.push({ path: at('name'), message: nameProblem });
  if (input.data === undefined)
    issues.push({ path: at('data'), message: 'is required (pass null or {} for an event without data)' });
  const dataIssue = jsonDataIssue(input.data, at('data'));
  if (dataIssue) issues.push(dataIssue);
  if (input.socketId !== undefined && !/^\d+\.\d+$/.test(String(input.socketId))) {
    issues.push({ path: at('socketId'), message: 'must look like "123.456" (a socket_id from pusher-js)' });
  }
  return issues;
}

/** `data` as sent: strings as they are, anything else JSON-encoded once (as pusher-http-node does). */
export function encodeData(data: unknown): string {
  return typeof data === 'string' ? data : JSON.stringify(data);
}

/** Checked on the final text (after encryption, which adds about a third), as the service measures it. */
export function payloadIssue(data: string, rules: EventRules, path: string): ValidationIssue | undefined {
  const size = utf8Length(data);
  if (size <= rules.maxPayloadBytes) return undefined;
  return {
    path,
    message:
      `is ${size} bytes once encoded, over maxPayloadBytes ${rules.maxPayloadBytes} (the service answers 413 above ` +
      'its limit, 10 KB unless your plan raises it); send less, or a reference the client fetches',
  };
}

export function infoParam(info: string | readonly string[] | undefined): string | undefined {
  if (info === undefined) return undefined;
  const list = typeof info === 'string' ? info : info.join(',');
  return list === '' ? undefined : list;
}

export function throwIfAny(what: string, issues: ValidationIssue[]): void {
  if (issues.length > 0) throw new ValidationError(what, issues);
}
