import type { APIPromise, PagePromise, RequestOptions } from '@x/core';
import {
  type Customer,
  type CustomerCreateInput,
  type CustomerListParams,
  type CustomerUpdateInput,
  customer,
  customerCreateInput,
  customerListParams,
  customerUpdateInput,
} from '../schemas/customers.js';
import type { SyncOptions } from '../sync/checkpoint.js';
import {
  type BatchInput,
  type BatchOptions,
  type BatchResult,
  Collection,
  type DeleteParams,
  type GetParams,
  type ListOptions,
  type Schemas,
  type StoreContext,
} from './collection.js';
import { Sync, type SyncRun } from './sync.js';

const customerSchemas = {
  item: customer,
  create: customerCreateInput,
  update: customerUpdateInput,
  list: customerListParams,
  name: 'customers',
  trashable: false,
} satisfies Schemas;

/** `/customers`: registered customers (WordPress users); guests exist only on their orders. */
export class Customers {
  readonly #collection: Collection<typeof customerSchemas>;
  readonly #sync: Sync<Customer>;

  constructor(context: StoreContext) {
    this.#collection = new Collection(context, '/customers', customerSchemas);
    this.#sync = new Sync(context, '/customers', customerSchemas.item, 'customers');
  }

  /** `email` is required; without `password` the store generates one and emails the customer. */
  create(input: CustomerCreateInput, options?: RequestOptions): APIPromise<Customer> {
    return this.#collection.create(input, options);
  }

  /** With `_fields` the store sends only those fields, and only those are validated. */
  get(id: number, params?: GetParams, options?: RequestOptions): APIPromise<Customer> {
    return this.#collection.get(id, params, options);
  }

  /** Only the fields you pass change. */
  update(id: number, input: CustomerUpdateInput, options?: RequestOptions): APIPromise<Customer> {
    return this.#collection.update(id, input, options);
  }

  /** Customers cannot be trashed: always sends `force=true` (pass `reassign` to keep their posts). */
  delete(id: number, params?: DeleteParams, options?: RequestOptions): APIPromise<Customer> {
    return this.#collection.delete(id, params, options);
  }

  /** Only the `customer` role unless `role` says otherwise; `for await` walks every page. */
  list(params?: CustomerListParams, options?: ListOptions): PagePromise<Customer> {
    return this.#collection.list(params, options);
  }

  /**
   * Every customer once per scan, in id order (the route has no `modified_after`: it is compared here). `run.checkpoint` (plain JSON) resumes it: `sync({ checkpoint })`; without options it continues from the
   * client's last checkpoint (or a `checkpointStore`). README: "Resumable sync".
   */
  sync(options?: SyncOptions, requestOptions?: RequestOptions): SyncRun<Customer> {
    return this.#sync.run(options, requestOptions);
  }

  /** Any number of creates, updates and deletes, sent in requests of at most 100 items. */
  batch(
    input: BatchInput<CustomerCreateInput, CustomerUpdateInput>,
    options?: BatchOptions,
  ): Promise<BatchResult<Customer>> {
    return this.#collection.batch(input, options);
  }
}
