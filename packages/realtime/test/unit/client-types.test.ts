import { describe, expectTypeOf, it } from 'vitest';
import {
  type Channel,
  type EncryptedChannel,
  type Member,
  type Members,
  type PresenceChannel,
  type PrivateChannel,
  RealtimeClient,
} from '../../src/index.js';

describe('public types', () => {
  const client = new RealtimeClient<{ name: string }>('key', { wsHost: 'localhost' });

  it('subscribe() returns the channel class the prefix gives', () => {
    expectTypeOf(client.subscribe('presence-room')).toEqualTypeOf<PresenceChannel<{ name: string }>>();
    expectTypeOf(client.subscribe('private-encrypted-dm')).toEqualTypeOf<EncryptedChannel>();
    expectTypeOf(client.subscribe('private-orders')).toEqualTypeOf<PrivateChannel>();
    expectTypeOf(client.subscribe('news')).toEqualTypeOf<Channel>();
  });

  it('presence members and events are typed with the client UserInfo', () => {
    const room = client.subscribe('presence-room');
    expectTypeOf(room.members).toEqualTypeOf<Members<{ name: string }>>();
    expectTypeOf(room.members.me).toEqualTypeOf<Member<{ name: string }> | null>();
    room.bind('pusher:member_added', (member) => expectTypeOf(member.info.name).toBeString());
    room.onMemberRemoved((member) => expectTypeOf(member.id).toBeString());
  });

  it('bind<T> types app payloads; trigger exists only where client events do', () => {
    client.subscribe('news').bind<{ id: number }>('created', (data, meta) => {
      expectTypeOf(data.id).toBeNumber();
      expectTypeOf(meta.user_id).toEqualTypeOf<string | undefined>();
    });
    expectTypeOf(client.subscribe('private-chat').trigger).parameter(0).toEqualTypeOf<`client-${string}`>();
    // @ts-expect-error public channels cannot send client events
    client.subscribe('news').trigger;
    const encrypted: EncryptedChannel = client.subscribe('private-encrypted-dm');
    // @ts-expect-error encrypted channels refuse client events (it throws at run time)
    expectTypeOf(encrypted.trigger).toBeCallableWith('client-x', {});
  });

  it('user.watchlist is bind / unbind only: its emit is not public', () => {
    client.user.watchlist.bind('online', ({ user_ids }) => expectTypeOf(user_ids).toEqualTypeOf<string[]>());
    // @ts-expect-error the client emits watchlist events, the app does not
    client.user.watchlist.emit;
  });
});
