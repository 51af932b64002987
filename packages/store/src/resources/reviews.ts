import type { APIPromise, PagePromise, RequestOptions } from '@x/core';
import * as z from 'zod/mini';
import {
  type DeletedReview,
  deletedReview,
  type Review,
  type ReviewCreateInput,
  type ReviewListParams,
  type ReviewUpdateInput,
  review,
  reviewCreateInput,
  reviewListParams,
  reviewUpdateInput,
} from '../schemas/reviews.js';
import {
  type BatchInput,
  type BatchOptions,
  type BatchResult,
  Collection,
  type GetParams,
  type ListOptions,
  type Schemas,
  type StoreContext,
} from './collection.js';

const reviewSchemas = {
  item: review,
  create: reviewCreateInput,
  update: reviewUpdateInput,
  list: reviewListParams,
  name: 'product reviews',
  trashable: true,
} satisfies Schemas;
/** A delete answers the trashed review, or `{deleted, previous}` when forced (batch deletes always are). */
const deletingSchemas = { ...reviewSchemas, item: z.union([deletedReview, review]) } satisfies Schemas;

/** `/products/reviews`: reviews of every product; `product: [id]` narrows the list to some. */
export class Reviews {
  readonly #collection: Collection<typeof reviewSchemas>;
  readonly #deleting: Collection<typeof deletingSchemas>;

  constructor(context: StoreContext) {
    this.#collection = new Collection(context, '/products/reviews', reviewSchemas);
    this.#deleting = new Collection(context, '/products/reviews', deletingSchemas);
  }

  /** Approved unless `status` says otherwise; the same review twice by the same author is a 409. */
  create(input: ReviewCreateInput, options?: RequestOptions): APIPromise<Review> {
    return this.#collection.create(input, options);
  }

  /** `review` comes as HTML paragraphs unless `context: 'edit'`. */
  get(id: number, params?: GetParams, options?: RequestOptions): APIPromise<Review> {
    return this.#collection.get(id, params, options);
  }

  /** Only the fields you pass change; `status: 'untrash'` or `'unspam'` restores the status from before. */
  update(id: number, input: ReviewUpdateInput, options?: RequestOptions): APIPromise<Review> {
    return this.#collection.update(id, input, options);
  }

  /** Moves the review to the trash; `{ force: true }` deletes it for good and answers `{deleted, previous}`. */
  delete(id: number, params: { force: true }, options?: RequestOptions): APIPromise<DeletedReview>;
  delete(id: number, params?: { force?: false }, options?: RequestOptions): APIPromise<Review>;
  delete(
    id: number,
    params?: { force?: boolean },
    options?: RequestOptions,
  ): APIPromise<Review | DeletedReview> {
    return this.#deleting.delete(id, params, options);
  }

  /** Approved reviews unless `status` says otherwise; `for await` walks every page. */
  list(params?: ReviewListParams, options?: ListOptions): PagePromise<Review> {
    return this.#collection.list(params, options);
  }

  /** Any number of creates, updates and deletes (forced), sent in requests of at most 100 items. */
  batch(
    input: BatchInput<ReviewCreateInput, ReviewUpdateInput>,
    options?: BatchOptions,
  ): Promise<BatchResult<Review | DeletedReview>> {
    return this.#deleting.batch(input, options);
  }
}
