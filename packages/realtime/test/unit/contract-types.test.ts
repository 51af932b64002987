/**
 * One contract, both ends: the same `defineContract` types the server's `trigger`, `triggerBatch` and
 * `sendToUser` and the client's `subscribe(...).bind` and client events. The `@ts-expect-error` lines fail
 * `pnpm --filter @x/realtime typecheck` the day the contract stops catching a renamed payload field or a
 * typo'd event name; the run-time half checks `check()`'s verdicts without a socket.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod/mini';
import {
  type Channel,
  type ChannelPattern,
  defineContract,
  event,
  type Member,
  type PresenceChannel,
  type PrivateChannel,
  RealtimeClient,
} from '../../src/index.js';
import { type BatchEvent, RealtimeServer } from '../../src/server.js';

const order = z.object({ id: z.string(), status: z.enum(['paid', 'shipped']) });

const contract = defineContract({
  'private-order-{id}': {
    'order-updated': order,
    'client-typing': event<{ who: string }>(),
  },
  'presence-room-{room}': { 'client-cursor': event<{ x: number; y: number }>() },
  news: { headline: event<{ title: string }>() },
  '#server-to-user-{id}': { notice: event<{ text: string }>() },
});

type Order = z.infer<typeof order>;
const typeOnly = (lines: () => void) => expectTypeOf(lines).toBeFunction();
const client = new RealtimeClient('key', { wsHost: 'localhost', contract });
const server = new RealtimeServer({ appId: 1, key: 'k', secret: 's', host: 'localhost', contract });

describe('contract types', () => {
  it('maps {placeholders} to template literals', () => {
    expectTypeOf<ChannelPattern<'private-order-{id}'>>().toEqualTypeOf<`private-order-${string}`>();
    expectTypeOf<ChannelPattern<'a-{x}-b-{y}'>>().toEqualTypeOf<`a-${string}-b-${string}`>();
    expectTypeOf<ChannelPattern<'news'>>().toEqualTypeOf<'news'>();
  });

  it('the client binds with the payload the contract declares', () => {
    const channel = client.subscribe('private-order-12');
    expectTypeOf(channel).toEqualTypeOf<
      PrivateChannel<{ 'order-updated': Order; 'client-typing': { who: string } }>
    >();
    channel.bind('order-updated', (data) => expectTypeOf(data).toEqualTypeOf<Order>());
    channel.bind('client-typing', (data, meta) => {
      expectTypeOf(data.who).toBeString();
      expectTypeOf(meta.user_id).toEqualTypeOf<string | undefined>();
    });
    // protocol events keep their own types
    channel.bind('pusher:subscription_count', (data) => expectTypeOf(data.subscription_count).toBeNumber());
    // @ts-expect-error a typo'd event name on a contract channel
    channel.bind('order-update', () => {});
    channel.bind('order-updated', (data) => {
      // @ts-expect-error a renamed payload field (`state` is not in the schema)
      data.state;
    });
    client.subscribe('news').bind('headline', (data) => expectTypeOf(data.title).toBeString());
    // The event map is readable from the channel's type, for helpers built on it.
    type EventsOf<Ch> = Ch extends Channel<infer E> ? E : never;
    expectTypeOf<EventsOf<ReturnType<typeof client.subscribe<'news'>>>>().toEqualTypeOf<{
      headline: { title: string };
    }>();
  });

  it('client events are typed, and only the declared ones exist', () => {
    const channel = client.subscribe('private-order-12');
    channel.trigger('client-typing', { who: 'ada' });
    // @ts-expect-error a renamed payload field on a client event
    channel.trigger('client-typing', { whom: 'ada' });
    // @ts-expect-error a client event the contract does not declare
    channel.trigger('client-other', {});
    const room = client.subscribe('presence-room-7');
    expectTypeOf(room).toExtend<
      PresenceChannel<Record<string, unknown>, { 'client-cursor': { x: number; y: number } }>
    >();
    room.trigger('client-cursor', { x: 1, y: 2 });
    room.bind('client-cursor', (data) => expectTypeOf(data.x).toBeNumber());
    room.bind('pusher:member_added', (member) =>
      expectTypeOf(member).toEqualTypeOf<Member<Record<string, unknown>>>(),
    );
    // @ts-expect-error presence channels check client events against the contract too
    room.trigger('client-cursor', { x: 1 });
  });

  it('channels no pattern matches stay untyped, as without a contract', () => {
    const other = client.subscribe('private-misc');
    expectTypeOf(other).toEqualTypeOf<PrivateChannel>();
    other.bind<{ n: number }>('anything', (data) => expectTypeOf(data.n).toBeNumber());
    other.trigger('client-anything', 42);
    const dynamic: string = 'private-order-1';
    expectTypeOf(client.subscribe(dynamic)).toEqualTypeOf<Channel>();
    // A client without a contract is the client it always was.
    const plain = new RealtimeClient<{ name: string }>('key', { wsHost: 'localhost' });
    plain.subscribe('private-order-1').bind<{ id: string }>('order-updated', (data) => {
      expectTypeOf(data.id).toBeString();
    });
  });

  // Never called: these lines are checked by the compiler and would otherwise publish for real.
  it('the server triggers with the same payloads', () =>
    typeOnly(() => {
      void server.trigger('private-order-12', 'order-updated', { id: '12', status: 'paid' });
      // @ts-expect-error a renamed payload field on the trigger side
      void server.trigger('private-order-12', 'order-updated', { orderId: '12', status: 'paid' });
      // @ts-expect-error a value outside the schema's enum
      void server.trigger('private-order-12', 'order-updated', { id: '12', status: 'lost' });
      // @ts-expect-error a typo'd event name
      void server.trigger('private-order-12', 'order-update', { id: '12', status: 'paid' });
      void server.trigger(['private-order-1', 'private-order-2'], 'order-updated', {
        id: '1',
        status: 'shipped',
      });
      // Channels outside the contract take anything, as before.
      void server.trigger('private-misc', 'whatever', { any: 'thing' });
      void server.sendToUser('u-1', 'notice', { text: 'hi' });
      // @ts-expect-error a renamed field through sendToUser
      void server.sendToUser('u-1', 'notice', { body: 'hi' });
    }));

  it('triggerBatch checks each event by its own channel', () =>
    typeOnly(() => {
      void server.triggerBatch([
        { channel: 'private-order-1', name: 'order-updated', data: { id: '1', status: 'paid' } },
        { channel: 'news', name: 'headline', data: { title: 'up' } },
        { channel: 'elsewhere', name: 'free', data: 1 },
      ]);
      void server.triggerBatch([
        { channel: 'news', name: 'headline', data: { title: 'up' } },
        // @ts-expect-error a renamed field in one event of a batch
        { channel: 'private-order-1', name: 'order-updated', data: { orderId: '1', status: 'paid' } },
      ]);
      const dynamic: BatchEvent[] = [{ channel: 'private-order-1', name: 'x', data: 1 }];
      void server.triggerBatch(dynamic);
      // A server without a contract takes anything, as before.
      const plain = new RealtimeServer({ appId: 1, key: 'k', secret: 's', host: 'localhost' });
      void plain.trigger('private-order-1', 'order-updated', { anything: true });
    }));
});

describe('a schema that transforms', () => {
  // Payloads travel as they were given and arrive as JSON: a schema validates them, it does not transform
  // them, so both ends see its input type (its output typed `trigger('len', 3)`, which the check refuses).
  const lengths = defineContract({
    room: {
      len: z.pipe(
        z.string(),
        z.transform((s) => s.length),
      ),
    },
  });
  const typed = new RealtimeServer({ appId: 1, key: 'k', secret: 's', host: 'localhost', contract: lengths });
  const receiver = new RealtimeClient('key', { wsHost: 'localhost', contract: lengths });

  it('types the payload as sent and received: the schema’s input', () =>
    typeOnly(() => {
      void typed.trigger('room', 'len', 'abc');
      // @ts-expect-error the output type is not what is sent
      void typed.trigger('room', 'len', 3);
      receiver.subscribe('room').bind('len', (data) => expectTypeOf(data).toEqualTypeOf<string>());
    }));

  it('and its check agrees: the input passes, the output does not', () => {
    expect(lengths.check('room', 'len', 'abc')).toBeNull();
    expect(lengths.check('room', 'len', 3)).not.toBeNull();
  });
});

describe('contract check at run time', () => {
  it('names the field path and never the value', () => {
    const verdict = contract.check('private-order-9', 'order-updated', {
      id: 'secret-value',
      status: 'lost',
    });
    expect(verdict).toEqual([{ path: 'data.status', message: expect.any(String) }]);
    expect(JSON.stringify(verdict)).not.toContain('lost');
    expect(contract.check('private-order-9', 'order-updated', { id: '9', status: 'paid' })).toBeNull();
  });

  it('type-only events, unknown events and unknown channels pass', () => {
    expect(contract.check('private-order-9', 'client-typing', 'not even an object')).toBeNull();
    expect(contract.check('private-order-9', 'other', 1)).toBeNull();
    expect(contract.check('private-misc', 'order-updated', 1)).toBeNull();
    // `{id}` is any text, but the rest of the name is exact.
    expect(contract.check('xprivate-order-9', 'order-updated', 1)).toBeNull();
    expect(contract.check('private-order-', 'order-updated', 1)).not.toBeNull();
  });

  it('async schemas answer with a Promise; a throwing schema is a problem of the payload', async () => {
    const slow = defineContract({
      'private-a-{x}': {
        ok: z.object({ n: z.number() }).check(z.refine(async (v) => v.n > 0, 'must be positive')),
        boom: {
          '~standard': {
            version: 1,
            vendor: 'test',
            validate: () => {
              throw new TypeError('raw value 1234');
            },
          },
        },
      },
    });
    const pending = slow.check('private-a-1', 'ok', { n: -1 });
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toEqual([{ path: 'data', message: 'must be positive' }]);
    expect(await slow.check('private-a-1', 'ok', { n: 1 })).toBeNull();
    const thrown = slow.check('private-a-1', 'boom', 1);
    expect(thrown).toEqual([{ path: 'data', message: 'the schema threw TypeError' }]);
  });
});
