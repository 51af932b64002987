import { ORDER_STATUSES } from '../../orders/orders.js';
import type { Specs } from '../../rest/params.js';
import { BILLING_SPEC, CONTEXT, collectionSpecs, META_DATA, SHIPPING_SPEC } from './common.js';

export const ORDER_SPECS: Specs = {
  parent_id: { type: 'integer' },
  status: { type: 'string', enum: ORDER_STATUSES },
  currency: { type: 'string' },
  customer_id: { type: 'integer' },
  customer_note: { type: 'string' },
  billing: BILLING_SPEC,
  shipping: SHIPPING_SPEC,
  payment_method: { type: 'string' },
  payment_method_title: { type: 'string' },
  transaction_id: { type: 'string' },
  meta_data: META_DATA,
  line_items: {
    type: 'array',
    items: {
      type: 'object',
      props: {
        id: { type: 'integer' },
        name: { type: 'string', nullable: true },
        product_id: { type: 'integer', nullable: true },
        variation_id: { type: 'integer', nullable: true },
        quantity: { type: 'integer', nullable: true },
        tax_class: { type: 'string', nullable: true },
        subtotal: { type: 'string', nullable: true },
        total: { type: 'string', nullable: true },
        sku: { type: 'string', nullable: true },
        meta_data: META_DATA,
      },
    },
  },
  shipping_lines: {
    type: 'array',
    items: {
      type: 'object',
      props: {
        id: { type: 'integer' },
        method_title: { type: 'string', nullable: true },
        method_id: { type: 'string', nullable: true },
        instance_id: { type: 'string', nullable: true },
        total: { type: 'string', nullable: true },
        meta_data: META_DATA,
      },
    },
  },
  fee_lines: {
    type: 'array',
    items: {
      type: 'object',
      props: {
        id: { type: 'integer' },
        name: { type: 'string', nullable: true },
        tax_class: { type: 'string', nullable: true },
        tax_status: { type: 'string', enum: ['taxable', 'none'] },
        total: { type: 'string', nullable: true },
        meta_data: META_DATA,
      },
    },
  },
  coupon_lines: {
    type: 'array',
    items: { type: 'object', props: { id: { type: 'integer' }, code: { type: 'string', nullable: true } } },
  },
  set_paid: { type: 'boolean' },
};

export const ORDER_LIST_SPECS: Specs = {
  ...collectionSpecs(['date', 'id', 'include', 'title', 'slug', 'modified']),
  status: { type: 'array', items: { type: 'string', enum: ['any', 'trash', ...ORDER_STATUSES] } },
  customer: { type: 'integer' },
  product: { type: 'integer' },
  dp: { type: 'integer' },
  created_via: { type: 'array', items: { type: 'string' } },
};

/** GET of one order declares only `context`; its `dp` is taken unvalidated (responseDecimals()). */
export const DP_SPECS: Specs = { context: CONTEXT };

/**
 * WC_REST_Orders_Controller::save_object() sets the status only `if ( ! empty( $request['status'] ) )`, so an
 * empty one leaves it (a new order stays pending); WC_Order::set_currency() takes an empty currency as the
 * store's.
 */
export function orderArgs(p: Record<string, unknown>, storeCurrency: string): Record<string, unknown> {
  if (p.status === '') delete p.status;
  if (p.currency === '') p.currency = storeCurrency;
  return p;
}
