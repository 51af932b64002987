import { type BaseClient, parseInput, type RequestOptions, type RequestSpec } from '@x/core';
import * as z from 'zod/mini';
import {
  order,
  orderInput,
  orderListParams,
  orderNote,
  orderNoteInput,
  orderNoteListParams,
  refund,
  refundInput,
  refundListParams,
} from '../schemas/orders.js';
import { Collection, checkId, type ListOptions } from './collection.js';

const orderSchemas = {
  item: order,
  create: orderInput,
  update: orderInput,
  list: orderListParams,
  name: 'orders',
  trashable: true,
};
const refundSchemas = {
  item: refund,
  create: refundInput,
  update: refundInput,
  list: refundListParams,
  name: 'refunds',
  trashable: false,
};

/** `/orders/{id}/notes`: no update route and no paging (the store returns every note). */
export class OrderNotes {
  constructor(private readonly client: BaseClient) {}
  create(orderId: number, input: z.input<typeof orderNoteInput>, options?: RequestOptions) {
    return this.client.request(() => ({
      method: 'POST' as const,
      path: `/orders/${checkId(orderId, 'orderId')}/notes`,
      body: parseInput(orderNoteInput, input, 'orders.notes.create input'),
      schema: orderNote,
      what: 'orders.notes.create',
      options,
    }));
  }
  get(orderId: number, id: number, options?: RequestOptions) {
    return this.client.request(() => ({
      method: 'GET' as const,
      path: `/orders/${checkId(orderId, 'orderId')}/notes/${checkId(id)}`,
      schema: orderNote,
      what: 'orders.notes.get',
      options,
    }));
  }
  /** Notes cannot be trashed, so this always deletes for good (`force=true`). */
  delete(orderId: number, id: number, options?: RequestOptions) {
    return this.client.request(() => ({
      method: 'DELETE' as const,
      path: `/orders/${checkId(orderId, 'orderId')}/notes/${checkId(id)}`,
      query: { force: true },
      schema: orderNote,
      what: 'orders.notes.delete',
      options,
    }));
  }
  list(orderId: number, params?: z.input<typeof orderNoteListParams>, options?: RequestOptions) {
    return this.client.request(() => ({
      method: 'GET' as const,
      path: `/orders/${checkId(orderId, 'orderId')}/notes`,
      query: parseInput(
        orderNoteListParams,
        params ?? {},
        'orders.notes.list params',
      ) as RequestSpec['query'],
      schema: z.array(orderNote),
      what: 'orders.notes.list',
      options,
    }));
  }
}

type RefundCollection = Collection<
  typeof refund,
  typeof refundInput,
  typeof refundInput,
  typeof refundListParams
>;

export class OrderRefunds {
  constructor(private readonly client: BaseClient) {}
  #of(orderId: number): RefundCollection {
    return new Collection(this.client, () => `/orders/${checkId(orderId, 'orderId')}/refunds`, refundSchemas);
  }
  /** `api_refund` is required: `true` asks the gateway to pay back, `false` records a manual refund. */
  create(orderId: number, input: z.input<typeof refundInput>, options?: RequestOptions) {
    return this.#of(orderId).create(input, options);
  }
  /** A refund recorded in the store only (money returned outside WooCommerce): `api_refund: false`. */
  createManual(
    orderId: number,
    input: Omit<z.input<typeof refundInput>, 'api_refund'>,
    options?: RequestOptions,
  ) {
    return this.#of(orderId).create({ ...input, api_refund: false }, options);
  }
  get(orderId: number, id: number, options?: RequestOptions) {
    return this.#of(orderId).get(id, undefined, options);
  }
  delete(orderId: number, id: number, options?: RequestOptions) {
    return this.#of(orderId).delete(id, {}, options);
  }
  list(orderId: number, params?: z.input<typeof refundListParams>, options?: ListOptions) {
    return this.#of(orderId).list(params, options);
  }
}

export class Orders extends Collection<
  typeof order,
  typeof orderInput,
  typeof orderInput,
  typeof orderListParams
> {
  readonly notes: OrderNotes;
  readonly refunds: OrderRefunds;
  constructor(client: BaseClient) {
    super(client, '/orders', orderSchemas);
    this.notes = new OrderNotes(client);
    this.refunds = new OrderRefunds(client);
  }
}
