import { ATTRIBUTE_ORDER_BY, ATTRIBUTE_TYPES } from '../../catalog/attributes.js';
import type { Specs } from '../../rest/params.js';
import { CONTEXT } from './common.js';

/** WC_REST_Product_Attributes_V1_Controller::get_item_schema() as endpoint args. */
export const ATTRIBUTE_SPECS: Specs = {
  name: { type: 'string' },
  slug: { type: 'string' },
  type: { type: 'string', enum: ATTRIBUTE_TYPES },
  order_by: { type: 'string', enum: ATTRIBUTE_ORDER_BY },
  has_archives: { type: 'boolean' },
};

export const ATTRIBUTE_CREATE_SPECS: Specs = { ...ATTRIBUTE_SPECS, name: { type: 'string', required: true } };

/** The list takes only `context`: every attribute comes back on one page. */
export const ATTRIBUTE_LIST_SPECS: Specs = { context: CONTEXT };

/** DELETE's `force` defaults to true here: attributes have no trash, and say so only when asked to trash. */
export const ATTRIBUTE_DELETE_SPECS: Specs = { force: { type: 'boolean' } };
