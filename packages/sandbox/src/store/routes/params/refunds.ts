import type { Specs } from '../../rest/params.js';
import { CONTEXT, collectionSpecs, META_DATA } from './common.js';

export const REFUND_LIST_SPECS: Specs = {
  ...collectionSpecs(['date', 'id', 'include', 'title', 'slug', 'modified']),
  dp: { type: 'integer' },
};

export const REFUND_SPECS: Specs = {
  amount: { type: 'string' },
  reason: { type: 'string' },
  refunded_by: { type: 'integer' },
  meta_data: META_DATA,
  line_items: { type: 'array', items: { type: 'object' } },
  api_refund: { type: 'boolean' },
  api_restock: { type: 'boolean' },
};

/** GET of one refund declares only `context`; its `dp` is taken unvalidated (responseDecimals()). */
export const REFUND_GET_SPECS: Specs = { context: CONTEXT };
