import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';
import { expect, it } from 'vitest';
import {
  RealtimeProvider,
  useChannel,
  useConnectionState,
  useEvent,
  usePresence,
  useRealtimeClient,
  useResubscribed,
  useSocketId,
  useSubscribed,
  useUser,
} from '../../src/react.js';
import { wsTarget } from '../helpers/sandbox.js';
import { serverSandbox } from '../helpers/sandbox-hooks.js';

/** Server rendering runs no effect: the provider and every hook render their "not yet" state and open nothing. */
const { box } = serverSandbox();

function Page() {
  const state = useConnectionState();
  const room = useChannel('private-room');
  const subscribed = useSubscribed(room);
  const { members } = usePresence(useChannel('presence-lobby'));
  const user = useUser({ signin: true });
  const socketId = useSocketId();
  const client = useRealtimeClient();
  useEvent(room, 'message', () => {});
  useResubscribed(room, () => {});
  const none = useChannel(null);
  const unset = useChannel(undefined);
  const rest = `${socketId} ${client.allChannels().length} ${none} ${unset}`;
  return h('p', null, `${state} ${room === null} ${subscribed} ${members.length} ${user.state} ${rest}`);
}

it('renderToString with the provider opens no socket at the sandbox and throws nothing', async () => {
  box.rt.resetStats();
  const options = {
    ...wsTarget(box.rt),
    forceTLS: false,
    channelAuthorization: { endpoint: 'http://127.0.0.1:1/auth' },
  };
  const html = renderToString(h(RealtimeProvider, { appKey: box.rt.key, options }, h(Page)));
  expect(html).toBe('<p>initialized true false 0 signed-out null 0 null null</p>');
  // A task and a round trip to the sandbox later, still nothing: no connect was scheduled either.
  await new Promise((resolve) => setTimeout(resolve, 0));
  await box.server().trigger('private-room', 'ping', {});
  expect(box.rt.stats().sockets.opened).toBe(0);
  expect(box.rt.connections()).toBe(0);
});
