import { RealtimeClient } from '@x/realtime';
import { DESK_CHANNEL } from '../../src/shared/api.js';
import type { Desk } from './desk.js';

export interface Heard {
  name: string;
  data: any;
}

/** Another tab, as far as realtime goes: subscribed to the desk's channel, recording every event. */
export async function listen(desk: Desk): Promise<{
  events: Heard[];
  socketId: string;
  of(name: string): any[];
  close(): void;
}> {
  const { key, ...endpoint } = desk.config.realtime.client;
  const client = new RealtimeClient(key, {
    ...endpoint,
    channelAuthorization: { endpoint: `${desk.server.url}/api/realtime/auth` },
  });
  const events: Heard[] = [];
  const channel = client.subscribe(DESK_CHANNEL);
  channel.bindGlobal((name: string, data: unknown) => {
    if (!name.startsWith('pusher')) events.push({ name, data });
  });
  const subscribed = new Promise<void>((resolve, reject) => {
    channel.bind('pusher:subscription_succeeded', () => resolve());
    channel.bind('pusher:subscription_error', (error) => reject(new Error(JSON.stringify(error))));
  });
  client.connect();
  await subscribed;
  return {
    events,
    socketId: client.connection.socketId!,
    of: (name) => events.filter((e) => e.name === name).map((e) => e.data),
    close: () => client.disconnect(),
  };
}
