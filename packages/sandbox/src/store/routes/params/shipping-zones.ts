import type { Specs } from '../../rest/params.js';
import { LOCATION_TYPES } from '../../shipping/zones.js';

/** WC_REST_Shipping_Zones_V2_Controller::get_item_schema() (`id` is read-only). */
export const ZONE_SPECS: Specs = {
  name: { type: 'string' },
  order: { type: 'integer' },
};

export const ZONE_CREATE_SPECS: Specs = { ...ZONE_SPECS, name: { type: 'string', required: true } };

/** The locations route's args come from the location schema; the body itself is a JSON list. */
export const LOCATION_SPECS: Specs = {
  code: { type: 'string' },
  type: { type: 'string', enum: LOCATION_TYPES },
};

/** WC_REST_Shipping_Zone_Methods_V2_Controller::get_item_schema(): the writable fields. */
export const METHOD_SPECS: Specs = {
  order: { type: 'integer' },
  enabled: { type: 'boolean' },
  settings: { type: 'object' },
};

/** `method_id` is required on create and has no type in the route's args. */
export const METHOD_CREATE_SPECS: Specs = { ...METHOD_SPECS, method_id: { type: 'mixed', required: true } };

/** /shipping_methods: `context` whose only value is `view` (every schema field is view-only). */
export const SHIPPING_METHOD_VIEW: Specs = { context: { type: 'string', enum: ['view'] } };
