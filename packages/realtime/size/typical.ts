/**
 * What a typical browser user of `@x/realtime` ships: one client, connect, one private channel, one
 * bound event. size-limit bundles this with esbuild (minified, browser platform, @x/core included) and
 * checks the gzip size against the limit in package.json. Encrypted channels load NaCl on demand, in
 * their own chunk, so it is not counted here.
 */
import { RealtimeClient } from '../dist/index.js';

const client = new RealtimeClient('app-key', {
  cluster: 'eu',
  channelAuthorization: { endpoint: '/pusher/auth' },
});
client.connect();
client.subscribe('private-orders').bind<{ id: string }>('order-shipped', (order) => console.log(order.id));
