import type { Store } from '../../data/store.js';
import { classEnum } from '../../pricing/taxes.js';
import type { Specs } from '../../rest/params.js';
import { CONTEXT } from './common.js';

/**
 * The body args of /taxes (WC_REST_Taxes_Controller::get_item_schema(), v1 fields plus v3's `postcodes` and
 * `cities`). `class` is an enum of the classes that exist when the request comes in.
 */
export function taxRateSpecs(store: Store): Specs {
  return {
    country: { type: 'string' },
    state: { type: 'string' },
    postcode: { type: 'string' },
    city: { type: 'string' },
    rate: { type: 'string' },
    name: { type: 'string' },
    priority: { type: 'integer' },
    compound: { type: 'boolean' },
    shipping: { type: 'boolean' },
    order: { type: 'integer' },
    class: { type: 'string', enum: classEnum(store) },
    // Appended by the v3 controller's get_item_schema(), so checked (and reported) last.
    postcodes: { type: 'array', items: { type: 'string' } },
    cities: { type: 'array', items: { type: 'string' } },
  };
}

/** The schema defaults get_endpoint_args_for_item_schema() gives a CREATABLE route's args (not EDITABLE ones). */
export const TAX_RATE_CREATE_DEFAULTS = { priority: 1, compound: false, shipping: true, class: 'standard' };

/** WC_REST_Taxes_V1_Controller::get_collection_params(): no search, include or date filters. */
export function taxListSpecs(store: Store): Specs {
  return {
    context: CONTEXT,
    page: { type: 'integer', min: 1 },
    per_page: { type: 'integer', min: 1, max: 100 },
    offset: { type: 'integer' },
    order: { type: 'string', enum: ['asc', 'desc'] },
    orderby: { type: 'string', enum: ['id', 'order', 'priority'] },
    class: { type: 'string', enum: classEnum(store) },
  };
}

/** WC_REST_Tax_Classes_V1_Controller::get_item_schema(): `slug` is read-only, `name` required. */
export const TAX_CLASS_CREATE_SPECS: Specs = { name: { type: 'string', required: true } };
