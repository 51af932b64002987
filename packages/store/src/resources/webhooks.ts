import type { APIPromise, PagePromise, RequestOptions } from '@x/core';
import {
  type Webhook,
  type WebhookCreateInput,
  type WebhookListParams,
  type WebhookUpdateInput,
  webhook,
  webhookCreateInput,
  webhookListParams,
  webhookUpdateInput,
} from '../schemas/webhooks.js';
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
import type { SyncRun } from './sync.js';
import {
  type CatchUpOptions,
  type CatchUpRecord,
  catchUp,
  type WebhookHealth,
  webhookHealth,
} from './webhook-health.js';

const webhookSchemas = {
  item: webhook,
  create: webhookCreateInput,
  update: webhookUpdateInput,
  list: webhookListParams,
  name: 'webhooks',
  trashable: false,
} satisfies Schemas;

/** Webhook subscriptions (`/webhooks`); to receive deliveries see `verifyWebhook` / `parseWebhook`. */
export class Webhooks {
  readonly #collection: Collection<typeof webhookSchemas>;
  readonly #context: StoreContext;

  constructor(context: StoreContext) {
    this.#context = context;
    this.#collection = new Collection(context, '/webhooks', webhookSchemas);
  }

  /** Keep the `secret` you pass (or read it back): deliveries are signed with it. */
  create(input: WebhookCreateInput, options?: RequestOptions): APIPromise<Webhook> {
    return this.#collection.create(input, options);
  }

  /** With `_fields` the store sends only those fields, and only those are validated. */
  get(id: number, params?: GetParams, options?: RequestOptions): APIPromise<Webhook> {
    return this.#collection.get(id, params, options);
  }

  /** Only the fields you pass change; `status: 'active'` resumes a webhook the store disabled. */
  update(id: number, input: WebhookUpdateInput, options?: RequestOptions): APIPromise<Webhook> {
    return this.#collection.update(id, input, options);
  }

  /** Webhooks have no trash, so this always deletes for good (`force=true`). */
  delete(id: number, params?: DeleteParams, options?: RequestOptions): APIPromise<Webhook> {
    return this.#collection.delete(id, params, options);
  }

  /** `await` gives the first page; `for await` walks every webhook of every page. */
  list(params?: WebhookListParams, options?: ListOptions): PagePromise<Webhook> {
    return this.#collection.list(params, options);
  }

  /** Any number of creates, updates and deletes, sent in requests of at most 100 items. */
  batch(
    input: BatchInput<WebhookCreateInput, WebhookUpdateInput>,
    options?: BatchOptions,
  ): Promise<BatchResult<Webhook>> {
    return this.#collection.batch(input, options);
  }

  /**
   * Every webhook the store stopped delivering: `disabled` after repeated failures (WooCommerce tells nobody),
   * `paused`, and `failing` where the store exposes a failure count (stock v3 does not). README: "Webhook operations".
   */
  async health(options?: ListOptions): Promise<WebhookHealth> {
    return webhookHealth(this.#collection.list({ per_page: 100 }, options));
  }

  /** `status: 'active'` again. WooCommerce keeps the failure count, so the next failure disables it again: fix the receiver first. */
  reenable(id: number, options?: RequestOptions): APIPromise<Webhook> {
    return this.#collection.update(checkId(id), { status: 'active' }, options);
  }

  /**
   * What changed while a webhook was down: its topic's records (orders, products or customers) modified after
   * `modified_after`, by the resumable sync (`orders.sync()`): each once, with a checkpoint to resume.
   */
  catchUp<T extends string>(
    webhook: T | { topic: T },
    options: CatchUpOptions,
    requestOptions?: RequestOptions,
  ): SyncRun<CatchUpRecord<T>> {
    return catchUp(this.#context, webhook, options, requestOptions);
  }
}
