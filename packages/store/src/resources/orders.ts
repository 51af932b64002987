import type { APIPromise, PagePromise, RequestOptions } from '@x/core';
import {
  type ManualRefundInput,
  type Order,
  type OrderInput,
  type OrderListParams,
  type OrderNote,
  type OrderNoteInput,
  type OrderNoteListParams,
  order,
  orderInput,
  orderListParams,
  orderNote,
  orderNoteInput,
  orderNoteListParams,
  type Refund,
  type RefundInput,
  type RefundListParams,
  refund,
  refundInput,
  refundListParams,
} from '../schemas/orders.js';
import type { SyncOptions } from '../sync/checkpoint.js';
import {
  type BatchInput,
  type BatchOptions,
  type BatchResult,
  Collection,
  checkId,
  type DeleteParams,
  type GetParams,
  type ListOptions,
  type Schemas,
  type StoreContext,
} from './collection.js';
import { Sync, type SyncRun } from './sync.js';

const orderSchemas = {
  item: order,
  create: orderInput,
  list: orderListParams,
  name: 'orders',
  trashable: true,
} satisfies Schemas;
const noteSchemas = {
  item: orderNote,
  create: orderNoteInput,
  list: orderNoteListParams,
  name: 'orders.notes',
  trashable: false,
} satisfies Schemas;
const refundSchemas = {
  item: refund,
  create: refundInput,
  list: refundListParams,
  name: 'refunds',
  trashable: false,
} satisfies Schemas;

/** `/orders`, with their notes and refunds. */
export class Orders {
  readonly notes: OrderNotes;
  readonly refunds: OrderRefunds;
  readonly #collection: Collection<typeof orderSchemas>;
  readonly #sync: Sync<Order>;

  constructor(context: StoreContext) {
    this.#collection = new Collection(context, '/orders', orderSchemas);
    this.#sync = new Sync(context, '/orders', orderSchemas.item, 'orders');
    this.notes = new OrderNotes(context);
    this.refunds = new OrderRefunds(context);
  }

  /** The store prices line items from their products and computes the totals itself. */
  create(input: OrderInput, options?: RequestOptions): APIPromise<Order> {
    return this.#collection.create(input, options);
  }

  /** With `_fields` the store sends only those fields, and only those are validated. */
  get(id: number, params?: GetParams, options?: RequestOptions): APIPromise<Order> {
    return this.#collection.get(id, params, options);
  }

  /** Only the fields you pass change; a status change moves stock as it would in the shop. */
  update(id: number, input: OrderInput, options?: RequestOptions): APIPromise<Order> {
    return this.#collection.update(id, input, options);
  }

  /** Moves the order to the trash; `{ force: true }` deletes it for good. */
  delete(id: number, params?: DeleteParams, options?: RequestOptions): APIPromise<Order> {
    return this.#collection.delete(id, params, options);
  }

  /** `await` gives the first page; `for await` walks every order of every page. */
  list(params?: OrderListParams, options?: ListOptions): PagePromise<Order> {
    return this.#collection.list(params, options);
  }

  /**
   * Every order once, oldest change first (keyset on `date_modified_gmt`, ties by id), even while orders change. `run.checkpoint` (plain JSON) resumes it: `sync({ checkpoint })`; without options it continues from the
   * client's last checkpoint (or a `checkpointStore`). README: "Resumable sync".
   */
  sync(options?: SyncOptions, requestOptions?: RequestOptions): SyncRun<Order> {
    return this.#sync.run(options, requestOptions);
  }

  /** Any number of creates, updates and deletes, sent in requests of at most 100 items. */
  batch(input: BatchInput<OrderInput, OrderInput>, options?: BatchOptions): Promise<BatchResult<Order>> {
    return this.#collection.batch(input, options);
  }
}

/** `/orders/{order_id}/notes`: no update route and no paging (the store returns every note at once). */
export class OrderNotes {
  readonly #context: StoreContext;

  constructor(context: StoreContext) {
    this.#context = context;
  }

  /** `customer_note: true` shows the note to the customer (and emails it); otherwise it is private. */
  create(orderId: number, input: OrderNoteInput, options?: RequestOptions): APIPromise<OrderNote> {
    return this.#collection(orderId).create(input, options);
  }

  /** One note of the order. */
  get(orderId: number, id: number, options?: RequestOptions): APIPromise<OrderNote> {
    return this.#collection(orderId).get(id, undefined, options);
  }

  /** Notes cannot be trashed, so this always deletes for good (`force=true`). */
  delete(orderId: number, id: number, options?: RequestOptions): APIPromise<OrderNote> {
    return this.#collection(orderId).delete(id, {}, options);
  }

  /**
   * Every note of the order. The store does not page notes and sends them all in one response, which
   * comes back as a single page (`total`, `totalPages: 1`), so notes read like every other list.
   */
  list(orderId: number, params?: OrderNoteListParams, options?: RequestOptions): PagePromise<OrderNote> {
    return this.#collection(orderId).listOnePage(params, options);
  }

  #collection(orderId: number): Collection<typeof noteSchemas> {
    return new Collection(this.#context, () => `/orders/${checkId(orderId, 'orderId')}/notes`, noteSchemas);
  }
}

/** `/orders/{order_id}/refunds`: no update route; refunds cannot be trashed. */
export class OrderRefunds {
  readonly #context: StoreContext;

  constructor(context: StoreContext) {
    this.#context = context;
  }

  /** `api_refund` is required: `true` asks the gateway to pay back, `false` records a manual refund. */
  create(orderId: number, input: RefundInput, options?: RequestOptions): APIPromise<Refund> {
    return this.#collection(orderId).create(input, options);
  }

  /** A refund recorded in the store only (money returned outside WooCommerce): `api_refund: false`. */
  createManual(orderId: number, input: ManualRefundInput, options?: RequestOptions): APIPromise<Refund> {
    return this.#collection(orderId).create({ ...input, api_refund: false }, options);
  }

  /** One refund of the order. */
  get(orderId: number, id: number, options?: RequestOptions): APIPromise<Refund> {
    return this.#collection(orderId).get(id, undefined, options);
  }

  /** Refunds have no trash, so this always deletes for good (`force=true`). */
  delete(orderId: number, id: number, options?: RequestOptions): APIPromise<Refund> {
    return this.#collection(orderId).delete(id, {}, options);
  }

  /** `await` gives the first page; `for await` walks every refund of the order. */
  list(orderId: number, params?: RefundListParams, options?: ListOptions): PagePromise<Refund> {
    return this.#collection(orderId).list(params, options);
  }

  #collection(orderId: number): Collection<typeof refundSchemas> {
    return new Collection(
      this.#context,
      () => `/orders/${checkId(orderId, 'orderId')}/refunds`,
      refundSchemas,
    );
  }
}
