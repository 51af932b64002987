import { describe, expectTypeOf, it } from 'vitest';
import {
  type Channel,
  defineContract,
  event,
  type PrivateChannel,
  type RealtimeClient,
} from '../../src/index.js';
import { useChannel, useEvent } from '../../src/react.js';

/** The hooks take their types from the client's contract, as `subscribe` and `bind` do. */
const contract = defineContract({
  'private-order-{id}': { shipped: event<{ id: number }>() },
  'news-{id}': { headline: event<{ title: string }>() },
});
type Client = RealtimeClient<{ name: string }, typeof contract>;
type Orders = PrivateChannel<{ shipped: { id: number } }>;

describe('hook types under a contract', () => {
  it('types the channel and its events from the contract', () => {
    expectTypeOf(useChannel<'private-order-7', Client>).returns.toEqualTypeOf<Orders | null>();
    expectTypeOf(useChannel<'private-other', Client>).returns.toEqualTypeOf<PrivateChannel | null>();
    const orders = null as Orders | null;
    // Never called, only checked.
    const check = () => {
      useEvent(orders, 'shipped', (data) => expectTypeOf(data).toEqualTypeOf<{ id: number }>());
      useEvent(orders, 'pusher:resubscribed', ({ gapMs }) => expectTypeOf(gapMs).toBeNumber());
      // @ts-expect-error an event the contract does not list
      useEvent(orders, 'shiped', () => {});
    };
    expectTypeOf(check).toBeFunction();
  });

  it('types a public channel’s events from the contract too', () => {
    type News = Channel<{ headline: { title: string } }>;
    expectTypeOf(useChannel<'news-1', Client>).returns.toEqualTypeOf<News | null>();
    const news = null as News | null;
    const check = () => {
      useEvent(news, 'headline', (data) => expectTypeOf(data).toEqualTypeOf<{ title: string }>());
      useEvent(news, 'pusher:subscription_count', (data) =>
        expectTypeOf(data.subscription_count).toBeNumber(),
      );
      // @ts-expect-error an event the contract does not list
      useEvent(news, 'headlin', () => {});
    };
    expectTypeOf(check).toBeFunction();
  });
});
