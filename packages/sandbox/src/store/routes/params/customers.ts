import type { Specs } from '../../rest/params.js';
import { BILLING_SPEC, CONTEXT, META_DATA, SHIPPING_SPEC } from './common.js';

const ROLES = [
  'all',
  'administrator',
  'editor',
  'author',
  'contributor',
  'subscriber',
  'customer',
  'shop_manager',
];

export function customerSpecs(creating: boolean): Specs {
  return {
    email: { type: 'string', format: 'email', required: creating },
    first_name: { type: 'string' },
    last_name: { type: 'string' },
    username: { type: 'string' },
    password: { type: 'string' },
    billing: BILLING_SPEC,
    shipping: SHIPPING_SPEC,
    meta_data: META_DATA,
  };
}

export const CUSTOMER_LIST_SPECS: Specs = {
  context: CONTEXT,
  page: { type: 'integer', min: 1 },
  per_page: { type: 'integer', min: 1, max: 100 },
  search: { type: 'string' },
  exclude: { type: 'array', items: { type: 'integer' } },
  include: { type: 'array', items: { type: 'integer' } },
  offset: { type: 'integer' },
  order: { type: 'string', enum: ['asc', 'desc'] },
  orderby: { type: 'string', enum: ['id', 'include', 'name', 'registered_date'] },
  email: { type: 'string', format: 'email' },
  role: { type: 'string', enum: ROLES },
};

export const CUSTOMER_DELETE_SPECS: Specs = {
  force: { type: 'boolean' },
  reassign: { type: 'integer', nullable: true },
};
