/**
 * What a typical React user of `@x/realtime/react` ships on top of React (a peer, not counted): the
 * provider, the connection state, one private channel and one event. Imports the build, as an app does.
 */
import { createElement as h } from 'react';
import { RealtimeProvider, useChannel, useConnectionState, useEvent } from '../dist/react.js';

function Orders() {
  const state = useConnectionState();
  const channel = useChannel('private-orders');
  useEvent<{ id: string }>(channel, 'order-shipped', (order) => console.log(order.id));
  return h('p', null, state);
}

export const App = () => h(RealtimeProvider, { appKey: 'app-key', options: { cluster: 'eu' } }, h(Orders));
