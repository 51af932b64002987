import { openEnum } from '@x/core';
import * as z from 'zod/mini';
import { collectionParams, links, wcDate } from './common.js';

const positiveId = z.number().check(z.int(), z.positive());

/** Statuses a review has; `unspam` and `untrash` are only written, to restore the status it had before. */
export const reviewStatus = openEnum(['approved', 'hold', 'spam', 'trash']);

export const review = z.looseObject({
  id: z.number(),
  date_created: wcDate,
  date_created_gmt: wcDate,
  product_id: z.number(),
  product_name: z.optional(z.string()),
  product_permalink: z.optional(z.string()),
  status: reviewStatus,
  reviewer: z.string(),
  reviewer_email: z.string(),
  /** HTML paragraphs in the default `view` context; as written in `edit` (create and update answers). */
  review: z.string(),
  rating: z.number(),
  /** Whether the reviewer's email bought the product (a processing or completed order). */
  verified: z.boolean(),
  reviewer_avatar_urls: z.optional(z.record(z.string(), z.string())),
  _links: links,
});
/** A product review (a `review` comment with `rating` and `verified` meta). */
export interface Review extends z.infer<typeof review> {}

/** What a forced delete answers: the review as it was. */
export const deletedReview = z.looseObject({ deleted: z.boolean(), previous: review });
export interface DeletedReview extends z.infer<typeof deletedReview> {}

const reviewFields = {
  product_id: positiveId,
  /** `approved` unless given; `unspam` / `untrash` restore the status before spam or trash (else `hold`). */
  status: openEnum(['approved', 'hold', 'spam', 'unspam', 'trash', 'untrash']),
  reviewer: z.string(),
  reviewer_email: z.string().check(z.email()),
  review: z.string().check(z.minLength(1)),
  /** 0 to 5; the store keeps the previous rating when an update sends 0. */
  rating: z.number().check(z.int(), z.minimum(0), z.maximum(5)),
};
const reviewCreateShape = z.strictObject({
  ...z.partial(z.strictObject(reviewFields)).shape,
  product_id: reviewFields.product_id,
  review: reviewFields.review,
  reviewer: reviewFields.reviewer,
  reviewer_email: reviewFields.reviewer_email,
});
/** `product_id`, `review`, `reviewer` and `reviewer_email` are required. */
export interface ReviewCreateInput extends z.input<typeof reviewCreateShape> {}
export const reviewCreateInput: z.ZodMiniType<ReviewCreateInput, ReviewCreateInput> = reviewCreateShape;
const reviewUpdateShape = z.partial(z.strictObject(reviewFields));
export interface ReviewUpdateInput extends z.input<typeof reviewUpdateShape> {}
export const reviewUpdateInput: z.ZodMiniType<ReviewUpdateInput, ReviewUpdateInput> = reviewUpdateShape;

/** WC_REST_Product_Reviews_Controller::get_collection_params(). */
const reviewListShape = z.strictObject({
  context: collectionParams.context,
  page: collectionParams.page,
  per_page: collectionParams.per_page,
  search: collectionParams.search,
  after: collectionParams.after,
  before: collectionParams.before,
  include: collectionParams.include,
  exclude: collectionParams.exclude,
  offset: collectionParams.offset,
  order: collectionParams.order,
  orderby: z.optional(openEnum(['date', 'date_gmt', 'id', 'include', 'product'])),
  /** User ids of reviewers (reviews made through the API have none). */
  reviewer: z.optional(z.array(positiveId)),
  reviewer_exclude: z.optional(z.array(positiveId)),
  reviewer_email: z.optional(z.string().check(z.email())),
  product: z.optional(z.array(positiveId)),
  /** Default `approved`; `all` is approved and held. */
  status: z.optional(openEnum(['all', 'hold', 'approved', 'spam', 'trash'])),
  _fields: collectionParams._fields,
});
export interface ReviewListParams extends z.input<typeof reviewListShape> {}
export const reviewListParams: z.ZodMiniType<ReviewListParams, ReviewListParams> = reviewListShape;
