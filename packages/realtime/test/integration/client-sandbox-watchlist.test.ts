/**
 * `client.user.watchlist` against the emulator with the app's watchlist events on (Pusher's watchlist page:
 * https://pusher.com/docs/channels/using_channels/watchlist-events): the state of the whole list at signin,
 * then `online`/`offline` as watched users come and go, each event carrying its name as pusher-js passes it.
 */
import { describe, expect, it } from 'vitest';
import type { WatchlistEvent } from '../../src/index.js';
import { devApp, waitFor } from '../helpers/sandbox.js';
import { clientSandbox } from '../helpers/sandbox-hooks.js';

const { auth, fleet } = clientSandbox({ apps: [devApp({ watchlistEvents: true })] });

describe('user.watchlist', () => {
  it('hears its list at signin, then online and offline by name with one handler on both', async () => {
    const params = { user_id: 'ada', watchlist: 'bob,carol' };
    const ada = await fleet.connected('ada', {
      userAuthentication: { endpoint: auth.userUrl, params },
    });
    const heard: WatchlistEvent[] = [];
    const record = (event: WatchlistEvent) => heard.push(event);
    ada.user.watchlist.bind('online', record).bind('offline', record);
    await ada.signin();
    await waitFor(() => heard.length > 0);
    expect(heard).toEqual([{ name: 'offline', user_ids: expect.arrayContaining(['bob', 'carol']) }]);

    heard.length = 0;
    const bob = await fleet.connected('bob');
    await bob.signin();
    await waitFor(() => heard.length === 1);
    expect(heard).toEqual([{ name: 'online', user_ids: ['bob'] }]);

    bob.disconnect();
    await waitFor(() => heard.length === 2);
    expect(heard[1]).toEqual({ name: 'offline', user_ids: ['bob'] });
  });
});
