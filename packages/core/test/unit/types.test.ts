import { describe, expectTypeOf, it } from 'vitest';
import * as z from 'zod/mini';
import {
  type APIPromise,
  BaseClient,
  type NotFoundError,
  type Page,
  type PagePromise,
  pageNumberStrategy,
  type RateLimiter,
  type ReleaseSlot,
  type WithResponse,
  type XError,
} from '../../src/index.js';

const Thing = z.looseObject({ id: z.number(), status: z.enum(['a', 'b']) });
type Thing = z.infer<typeof Thing>;

describe('public types of @x/core', () => {
  it('request infers the body type from the schema and offers withResponse', () => {
    const client = new BaseClient({ baseURL: 'http://x' }, { packageName: 'p', packageVersion: '1' });
    const call = client.request({ method: 'GET', path: '/t', schema: Thing });
    expectTypeOf(call).toEqualTypeOf<APIPromise<Thing>>();
    expectTypeOf<Awaited<typeof call>>().toEqualTypeOf<Thing>();
    expectTypeOf<ReturnType<typeof call.withResponse>>().toEqualTypeOf<Promise<WithResponse<Thing>>>();
    expectTypeOf(client.request({ method: 'GET', path: '/t' })).toEqualTypeOf<APIPromise<unknown>>();
  });

  it('list gives a promise of the first page that iterates items', () => {
    const client = new BaseClient({ baseURL: 'http://x' }, { packageName: 'p', packageVersion: '1' });
    const pages = client.list(
      { method: 'GET', path: '/t', schema: z.array(Thing) },
      pageNumberStrategy<Thing>({}),
    );
    expectTypeOf(pages).toEqualTypeOf<PagePromise<Thing>>();
    expectTypeOf<Awaited<typeof pages>>().toEqualTypeOf<Page<Thing>>();
    expectTypeOf(pages).toExtend<AsyncIterable<Thing>>();
  });

  it('errors and limiter contract', () => {
    expectTypeOf<NotFoundError>().toExtend<XError>();
    expectTypeOf<NotFoundError['status']>().toEqualTypeOf<number>();
    expectTypeOf<NotFoundError['requestId']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ReturnType<RateLimiter['acquire']>>().toEqualTypeOf<Promise<ReleaseSlot>>();
  });
});
