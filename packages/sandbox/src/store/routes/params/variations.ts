import type { Specs } from '../../rest/params.js';
import { collectionSpecs } from './common.js';
import { IMAGE, POST_STATUSES, SELLABLE_SPECS, STOCK_STATUSES } from './sellable.js';

export const VARIATION_SPECS: Specs = {
  ...SELLABLE_SPECS,
  status: { type: 'string', enum: POST_STATUSES },
  image: { ...IMAGE, nullable: true },
  attributes: {
    type: 'array',
    items: {
      type: 'object',
      props: { id: { type: 'integer' }, name: { type: 'string' }, option: { type: 'string' } },
    },
  },
};

export const VARIATION_LIST_SPECS: Specs = {
  ...collectionSpecs(['date', 'id', 'include', 'title', 'slug', 'modified', 'menu_order']),
  slug: { type: 'string' },
  status: { type: 'string', enum: ['any', 'future', 'trash', ...POST_STATUSES] },
  sku: { type: 'string' },
  tax_class: { type: 'string' },
  on_sale: { type: 'boolean' },
  min_price: { type: 'string' },
  max_price: { type: 'string' },
  stock_status: { type: 'string', enum: STOCK_STATUSES },
};
