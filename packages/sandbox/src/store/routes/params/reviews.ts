import type { Specs } from '../../rest/params.js';
import { CONTEXT } from './common.js';

export const REVIEW_STATUSES = ['approved', 'hold', 'spam', 'unspam', 'trash', 'untrash'] as const;

/** WC_REST_Product_Reviews_Controller::get_item_schema() as endpoint args (readonly fields left out). */
export const REVIEW_SPECS: Specs = {
  product_id: { type: 'integer' },
  // Not readonly in the schema, so it is an argument (validated, then ignored).
  product_name: { type: 'string' },
  status: { type: 'string', enum: REVIEW_STATUSES },
  reviewer: { type: 'string' },
  reviewer_email: { type: 'string', format: 'email' },
  review: { type: 'string' },
  rating: { type: 'integer' },
};

/**
 * register_routes() array_merge()s these four over the schema args on create, replacing them whole: the create
 * route's `reviewer_email` has no `format`, so a malformed email is not refused there (sanitize_email() on
 * insert empties it; see catalog/reviews.ts).
 */
export const REVIEW_CREATE_SPECS: Specs = {
  ...REVIEW_SPECS,
  product_id: { type: 'integer', required: true },
  review: { type: 'string', required: true },
  reviewer: { type: 'string', required: true },
  reviewer_email: { type: 'string', required: true },
};

/** WC_REST_Product_Reviews_Controller::get_collection_params(). */
export const REVIEW_LIST_SPECS: Specs = {
  context: CONTEXT,
  page: { type: 'integer', min: 1 },
  per_page: { type: 'integer', min: 1, max: 100 },
  search: { type: 'string' },
  after: { type: 'string', format: 'date-time' },
  before: { type: 'string', format: 'date-time' },
  exclude: { type: 'array', items: { type: 'integer' } },
  include: { type: 'array', items: { type: 'integer' } },
  offset: { type: 'integer' },
  order: { type: 'string', enum: ['asc', 'desc'] },
  orderby: { type: 'string', enum: ['date', 'date_gmt', 'id', 'include', 'product'] },
  reviewer: { type: 'array', items: { type: 'integer' } },
  reviewer_exclude: { type: 'array', items: { type: 'integer' } },
  reviewer_email: { type: 'string', format: 'email' },
  product: { type: 'array', items: { type: 'integer' } },
  status: { type: 'string', enum: ['all', 'hold', 'approved', 'spam', 'trash'] },
};
