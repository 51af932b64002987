import { describe, expectTypeOf, it } from 'vitest';
import type {
  APIError,
  BatchResult,
  ChannelAuthorization,
  ChannelInfo,
  ChannelList,
  ChannelUsers,
  RealtimeServer,
  TriggerResult,
  WebhookPayload,
  WithResponse,
} from '../../src/server.js';

describe('@x/realtime/server public types', () => {
  it('types every method by its response schema', () => {
    type S = RealtimeServer;
    expectTypeOf<Awaited<ReturnType<S['trigger']>>>().toEqualTypeOf<TriggerResult>();
    expectTypeOf<ReturnType<ReturnType<S['trigger']>['withResponse']>>().toEqualTypeOf<
      Promise<WithResponse<TriggerResult>>
    >();
    expectTypeOf<ReturnType<S['triggerBatch']>>().toEqualTypeOf<Promise<BatchResult>>();
    expectTypeOf<Awaited<ReturnType<S['channels']['list']>>>().toEqualTypeOf<ChannelList>();
    expectTypeOf<Awaited<ReturnType<S['channels']['get']>>>().toEqualTypeOf<ChannelInfo>();
    expectTypeOf<Awaited<ReturnType<S['channels']['users']>>>().toEqualTypeOf<ChannelUsers>();
    expectTypeOf<ReturnType<S['authorizeChannel']>>().toEqualTypeOf<Promise<ChannelAuthorization>>();
    expectTypeOf<ReturnType<S['verifyWebhook']>>().toEqualTypeOf<Promise<WebhookPayload>>();
    expectTypeOf<ChannelInfo['occupied']>().toEqualTypeOf<boolean>();
    expectTypeOf<APIError['status']>().toEqualTypeOf<number>();
  });
});
