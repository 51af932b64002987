/**
 * For comparison only (not a budget): the same use with pusher-js's browser build, measured the same way.
 * pusher-js is not tree-shakable, so this is its whole web bundle.
 */
import Pusher from 'pusher-js';

const pusher = new Pusher('app-key', {
  cluster: 'eu',
  channelAuthorization: { endpoint: '/pusher/auth', transport: 'ajax' },
});
pusher.subscribe('private-orders').bind('order-shipped', (order: { id: string }) => console.log(order.id));
