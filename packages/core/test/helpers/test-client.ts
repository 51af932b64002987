import * as z from 'zod/mini';
import { BaseClient, type ClientOptions } from '../../src/index.js';

/** A small client over core as a service package would write one, shared by the request-loop tests. */
export const thing = z.looseObject({ id: z.number(), name: z.string() });

export class TestClient extends BaseClient {
  constructor(options: ClientOptions) {
    super(
      { rateLimit: false, ...options },
      {
        packageName: '@x/test',
        packageVersion: '1.2.3',
        requestIdHeaders: ['x-request-id'],
        idempotencyHeader: 'idempotency-key',
      },
    );
  }
  getThing(id: number, options?: { signal?: AbortSignal; timeout?: number }) {
    return this.request({ method: 'GET', path: `/things/${id}`, schema: thing, what: 'things.get', options });
  }
  createThing(body: unknown, options?: { idempotencyKey?: string }) {
    return this.request({
      method: 'POST',
      path: '/things',
      body,
      schema: thing,
      what: 'things.create',
      options,
    });
  }
}
