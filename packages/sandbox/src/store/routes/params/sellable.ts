import type { Spec, Specs } from '../../rest/params.js';
import { META_DATA } from './common.js';

export const POST_STATUSES = ['draft', 'pending', 'private', 'publish'] as const;

export const STOCK_STATUSES = ['instock', 'outofstock', 'onbackorder'] as const;

const DIMENSIONS: Specs[string] = {
  type: 'object',
  props: { length: { type: 'string' }, width: { type: 'string' }, height: { type: 'string' } },
};

export const IMAGE = {
  type: 'object',
  props: {
    id: { type: 'integer' },
    src: { type: 'string', format: 'uri' },
    name: { type: 'string' },
    alt: { type: 'string' },
  },
} satisfies Spec;

/** Writable fields both products and variations take. */
export const SELLABLE_SPECS: Specs = {
  description: { type: 'string' },
  sku: { type: 'string' },
  regular_price: { type: 'string' },
  sale_price: { type: 'string' },
  date_on_sale_from: { type: 'string', format: 'date-time', nullable: 'first' },
  date_on_sale_from_gmt: { type: 'string', format: 'date-time', nullable: 'first' },
  date_on_sale_to: { type: 'string', format: 'date-time', nullable: 'first' },
  date_on_sale_to_gmt: { type: 'string', format: 'date-time', nullable: 'first' },
  virtual: { type: 'boolean' },
  downloadable: { type: 'boolean' },
  downloads: { type: 'array', items: { type: 'object' } },
  download_limit: { type: 'integer' },
  download_expiry: { type: 'integer' },
  tax_status: { type: 'string', enum: ['taxable', 'shipping', 'none'] },
  tax_class: { type: 'string' },
  manage_stock: { type: 'boolean' },
  // Plain 'integer' in the schema, so a null is sanitized to 0 (WP_REST_Request::sanitize_params()).
  stock_quantity: { type: 'integer' },
  stock_status: { type: 'string', enum: STOCK_STATUSES },
  backorders: { type: 'string', enum: ['no', 'notify', 'yes'] },
  low_stock_amount: { type: 'integer', nullable: true },
  weight: { type: 'string' },
  dimensions: DIMENSIONS,
  shipping_class: { type: 'string' },
  menu_order: { type: 'integer' },
  meta_data: META_DATA,
};
