/**
 * The hub's user index when a watchlist announcement closes the very connection that is signing in (a slow
 * reader is closed by a send, and its close runs `remove` at once). Model-level: the peers here close on a
 * chosen frame exactly as `Connection.send` does for a full buffer (mark closed, then `hub.remove`), which no
 * real socket can be made to do on one chosen frame.
 */
import { describe, expect, it } from 'vitest';
import type { RealtimeApp } from '../../src/index.js';
import { type Peer, RealtimeHub } from '../../src/realtime/model/hub.js';
import { resolveSettings } from '../../src/realtime/model/settings.js';
import { WebhookDispatcher } from '../../src/realtime/model/webhooks.js';

const app: RealtimeApp = {
  appId: '1',
  key: 'k',
  secret: 's',
  enableClientMessages: true,
  subscriptionCounting: false,
  webhooks: null,
  maxConnections: Number.POSITIVE_INFINITY,
  authorizedConnections: false,
  watchlistEvents: true,
};

function setup() {
  const settings = resolveSettings({});
  const hub = new RealtimeHub([app], settings, new WebhookDispatcher(settings.webhooks));
  let next = 0;
  const peer = (closeOn?: (frame: string) => boolean) => {
    const p: Peer & { frames: string[] } = {
      app,
      socketId: `${++next}.1`,
      channels: new Set(),
      userId: null,
      open: true,
      authorized: false,
      frames: [],
      authorize() {},
      send(text) {
        if (!p.open) return;
        if (closeOn?.(text)) {
          p.close(4100, 'slow');
          return;
        }
        p.frames.push(text);
      },
      close() {
        if (!p.open) return;
        (p as { open: boolean }).open = false;
        hub.remove(p);
      },
      terminate() {
        p.close(1006, '');
      },
    };
    hub.add(p);
    return p;
  };
  /** What a fresh watcher of `ids` is told at signin. */
  const stateOf = (ids: string[]) => {
    const w = peer();
    hub.signIn(w, `watcher-${next}`, ids);
    const events = JSON.parse(JSON.parse(w.frames.at(-1)!).data).events;
    w.close(1000, '');
    return events;
  };
  return { hub, peer, stateOf };
}

const isWatchlist = (name: 'online' | 'offline') => (frame: string) =>
  frame.includes('watchlist_events') && frame.includes(`\\"name\\":\\"${name}\\"`);

describe('watchlist announcements that close the connection signing in', () => {
  it("closed by the 'online' of the id it signs in as: the user is not left online", () => {
    const { hub, peer, stateOf } = setup();
    const p = peer(isWatchlist('online'));
    // Signed in as a, watching b; then signs in again as b, whose coming online it hears, and that send closes it.
    hub.signIn(p, 'a', ['b']);
    hub.signIn(p, 'b', []);
    expect(p.open).toBe(false);
    expect(hub.terminateUser(app, 'b', 4009, 'x')).toBe(0);
    expect(stateOf(['a', 'b'])).toEqual([{ name: 'offline', user_ids: ['a', 'b'] }]);
  });

  it("closed by the 'offline' of the id it leaves: the user it signs in as is not left online", () => {
    const { hub, peer, stateOf } = setup();
    const p = peer(isWatchlist('offline'));
    // Signed in as a, watching a itself; signing in as b takes a offline, which it hears, and that send closes it.
    hub.signIn(p, 'a', ['a']);
    hub.signIn(p, 'b', []);
    expect(p.open).toBe(false);
    expect(hub.terminateUser(app, 'b', 4009, 'x')).toBe(0);
    expect(hub.terminateUser(app, 'a', 4009, 'x')).toBe(0);
    expect(stateOf(['a', 'b'])).toEqual([{ name: 'offline', user_ids: ['a', 'b'] }]);
  });
});
