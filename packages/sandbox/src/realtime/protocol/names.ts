/**
 * Channel and event names as Pusher accepts them. Pusher's knowledge base ("What does the error 'Invalid channel
 * name' mean?") gives 164 characters including the prefix and the charset below; the server SDKs check event
 * names at 200 characters.
 */
export const MAX_CHANNEL_NAME_LENGTH = 164;
export const MAX_EVENT_NAME_LENGTH = 200;

const CHANNEL_CHARS = /^[A-Za-z0-9_\-=@,.;]+$/;
/** The channel a signed-in user's `sendToUser` events arrive on; clients never subscribe to it themselves. */
export const USER_CHANNEL_PREFIX = '#server-to-user-';

export type ChannelKind = 'public' | 'private' | 'presence' | 'encrypted';

export interface ChannelType {
  kind: ChannelKind;
  /** `cache-`, `private-cache-`, `presence-cache-`, `private-encrypted-cache-`: the last event is kept. */
  cache: boolean;
}

/** What a channel is, from its prefix (encrypted before private: `private-encrypted-` starts with `private-`). */
export function channelType(name: string): ChannelType {
  if (name.startsWith('private-encrypted-')) {
    return { kind: 'encrypted', cache: name.startsWith('private-encrypted-cache-') };
  }
  if (name.startsWith('private-')) return { kind: 'private', cache: name.startsWith('private-cache-') };
  if (name.startsWith('presence-')) return { kind: 'presence', cache: name.startsWith('presence-cache-') };
  return { kind: 'public', cache: name.startsWith('cache-') };
}

export function needsAuth(name: string): boolean {
  return channelType(name).kind !== 'public';
}

/** Why a channel name is refused, or null when it is fine. `#server-to-user-` names are allowed only when asked. */
export function channelNameProblem(name: unknown, options: { userChannel?: boolean } = {}): string | null {
  if (typeof name !== 'string' || name.length === 0) return 'channel name must be a non-empty string';
  if (name.length > MAX_CHANNEL_NAME_LENGTH) {
    return `channel name is ${name.length} characters; the limit is ${MAX_CHANNEL_NAME_LENGTH}`;
  }
  if (name.startsWith(USER_CHANNEL_PREFIX)) {
    if (!options.userChannel) return `channels starting with ${USER_CHANNEL_PREFIX} are reserved`;
    const id = name.slice(USER_CHANNEL_PREFIX.length);
    return id.length > 0 && CHANNEL_CHARS.test(id) ? null : `invalid channel name ${JSON.stringify(name)}`;
  }
  return CHANNEL_CHARS.test(name)
    ? null
    : `invalid channel name ${JSON.stringify(name)}: use only A-Z a-z 0-9 _ - = @ , . ;`;
}

export function eventNameProblem(name: unknown): string | null {
  if (typeof name !== 'string' || name.length === 0) return 'event name must be a non-empty string';
  if (name.length > MAX_EVENT_NAME_LENGTH) {
    return `event name is ${name.length} characters; the limit is ${MAX_EVENT_NAME_LENGTH}`;
  }
  return null;
}

/**
 * Pusher keeps the `pusher` namespace (`pusher:`, `pusher_internal:`) for its own events and refuses to
 * publish into it with a 400 and this text. pusher-http-ruby#142 quotes the answer, to an event named
 * `pusher-notification`, so a `-` separates the namespace too.
 */
export const RESERVED_EVENT_NAME = "The 'pusher' namespace is reserved for internal usage";

export const isReservedEventName = (name: string): boolean => /^pusher[-_:]/.test(name);

export const isClientEvent = (event: string): boolean => event.startsWith('client-');
