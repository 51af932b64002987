/**
 * Channel and event names as Pusher Channels accepts them, shared by the client and the server SDK so both
 * refuse the same names before anything is sent. No imports: the client bundle pulls this in.
 */

/** Pusher's documented maximum, prefix included (its knowledge base: "164 characters including the prefix"). */
export const MAX_CHANNEL_NAME_LENGTH = 164;
/** The server SDK's check on event names. */
export const MAX_EVENT_NAME_LENGTH = 200;

const CHANNEL_NAME = /^[A-Za-z0-9_\-=@,.;]+$/;

export type ChannelKind = 'public' | 'private' | 'presence' | 'encrypted';

/** What a channel name's prefix makes it: which auth it needs, whether it has members, whether it is cached. */
export function channelKind(name: string): ChannelKind {
  if (name.startsWith('private-encrypted-')) return 'encrypted';
  if (name.startsWith('private-')) return 'private';
  if (name.startsWith('presence-')) return 'presence';
  return 'public';
}

/** `cache-`, `private-cache-`, `presence-cache-`, `private-encrypted-cache-`: the last event is kept for new subscribers. */
export function isCacheChannel(name: string): boolean {
  return /^(private-encrypted-|private-|presence-)?cache-/.test(name);
}

/** Why a channel name is refused, or null when it is fine. */
export function channelNameProblem(name: unknown, maxLength = MAX_CHANNEL_NAME_LENGTH): string | null {
  if (typeof name !== 'string' || name.length === 0) return 'must be a non-empty string';
  if (name.length > maxLength) return `must be at most ${maxLength} characters (got ${name.length})`;
  if (!CHANNEL_NAME.test(name)) {
    return 'may only contain letters, digits and _ - = @ , . ;';
  }
  return null;
}

/** Why an event name is refused, or null. `client-` events are refused unless `clientEvent` is set. */
export function eventNameProblem(name: unknown, options: { clientEvent?: boolean } = {}): string | null {
  if (typeof name !== 'string' || name.length === 0) return 'must be a non-empty string';
  if (name.length > MAX_EVENT_NAME_LENGTH) {
    return `must be at most ${MAX_EVENT_NAME_LENGTH} characters (got ${name.length})`;
  }
  if (name.startsWith('pusher:') || name.startsWith('pusher_internal:')) {
    return 'must not start with "pusher:" or "pusher_internal:" (reserved for the protocol)';
  }
  if (options.clientEvent && !name.startsWith('client-')) return 'client events must start with "client-"';
  return null;
}
