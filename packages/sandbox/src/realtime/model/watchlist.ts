import { encodeFrame } from '../protocol/frames.js';
import type { Subscriber } from './channels.js';

/** The longest user id a watchlist entry may be: far beyond real ids, and a bound on what one entry costs. */
export const MAX_WATCHED_ID_LENGTH = 200;

export type WatchlistParse = { ok: true; ids: string[] } | { ok: false; message: string };

/**
 * The `watchlist` of signed `user_data`: an array of user ids (strings, or numbers as user ids may be), at most
 * `max` distinct ones. Duplicates count once. Anything else refuses the signin: the user's own server signed
 * it, so a malformed list is its bug to see, not one to paper over.
 */
export function parseWatchlist(value: unknown, max: number): WatchlistParse {
  if (value === undefined) return { ok: true, ids: [] };
  if (!Array.isArray(value))
    return { ok: false, message: 'user_data.watchlist must be an array of user ids' };
  // Checked before the entries are read, so a huge list costs nothing.
  if (value.length > max * 4) {
    return {
      ok: false,
      message: `user_data.watchlist has ${value.length} entries; the limit is ${max} user ids`,
    };
  }
  const ids = new Set<string>();
  for (const entry of value) {
    const id = typeof entry === 'number' && Number.isFinite(entry) ? String(entry) : entry;
    if (typeof id !== 'string' || id.length === 0 || id.length > MAX_WATCHED_ID_LENGTH) {
      return {
        ok: false,
        message: `user_data.watchlist entries must be user ids (strings of 1 to ${MAX_WATCHED_ID_LENGTH} characters)`,
      };
    }
    ids.add(id);
  }
  if (ids.size > max) {
    return { ok: false, message: `user_data.watchlist has ${ids.size} user ids; the limit is ${max}` };
  }
  return { ok: true, ids: [...ids] };
}

type WatchlistEvent = { name: 'online' | 'offline'; user_ids: string[] };

function watchlistFrame(events: WatchlistEvent[]): string {
  return encodeFrame({ event: 'pusher_internal:watchlist_events', data: { events } });
}

/**
 * One app's watchlists, as https://pusher.com/docs/channels/using_channels/watchlist-events describes them: a
 * signed-in user's `watchlist` (from user authentication) names users whose online/offline status it is told
 * of. A user is online from its first signed-in connection to the close of its last one; each change reaches
 * every connection watching that user as `pusher_internal:watchlist_events` `{events:[{name, user_ids}]}`,
 * which pusher-js emits on `pusher.user.watchlist` (src/core/watchlist.ts). At signin the connection gets the
 * state of its whole list, as the same page says: "Once the user is authenticated, they will receive events
 * indicating the current online status of peers in their watchlist ... whether a user ID is online or offline
 * for each user ID in the watchlist": one frame with an `online` event for those online and an `offline`
 * event for the rest (an empty group is left out).
 */
export class Watchlists {
  /** Watched user id → the connections watching it. */
  readonly #watchers = new Map<string, Set<Subscriber>>();
  readonly #lists = new Map<Subscriber, readonly string[]>();

  /** Starts (or replaces) what `watcher` watches, and tells it which of those users are online now and which not. */
  watch(watcher: Subscriber, ids: readonly string[], isOnline: (id: string) => boolean): void {
    this.unwatch(watcher);
    if (ids.length === 0) return;
    this.#lists.set(watcher, ids);
    for (const id of ids) {
      let set = this.#watchers.get(id);
      if (!set) {
        set = new Set();
        this.#watchers.set(id, set);
      }
      set.add(watcher);
    }
    const online = ids.filter(isOnline);
    const offline = ids.filter((id) => !isOnline(id));
    const events: WatchlistEvent[] = [];
    if (online.length > 0) events.push({ name: 'online', user_ids: online });
    if (offline.length > 0) events.push({ name: 'offline', user_ids: offline });
    watcher.send(watchlistFrame(events));
  }

  unwatch(watcher: Subscriber): void {
    const ids = this.#lists.get(watcher);
    if (!ids) return;
    this.#lists.delete(watcher);
    for (const id of ids) {
      const set = this.#watchers.get(id);
      set?.delete(watcher);
      if (set?.size === 0) this.#watchers.delete(id);
    }
  }

  /** `userId` came online or went offline: every connection watching it hears so. */
  announce(name: 'online' | 'offline', userId: string): void {
    const watchers = this.#watchers.get(userId);
    if (!watchers) return;
    const frame = watchlistFrame([{ name, user_ids: [userId] }]);
    // A copy: a send can close a slow reader, which unwatches while we iterate.
    for (const watcher of [...watchers]) watcher.send(frame);
  }

  clear(): void {
    this.#watchers.clear();
    this.#lists.clear();
  }
}
