import type { Specs } from '../../rest/params.js';
import { collectionSpecs } from './common.js';
import { IMAGE, POST_STATUSES, SELLABLE_SPECS, STOCK_STATUSES } from './sellable.js';

const PRODUCT_TYPES = ['simple', 'grouped', 'external', 'variable'] as const;

export const PRODUCT_SPECS: Specs = {
  ...SELLABLE_SPECS,
  name: { type: 'string' },
  slug: { type: 'string' },
  type: { type: 'string', enum: PRODUCT_TYPES },
  status: { type: 'string', enum: [...POST_STATUSES, 'future', 'auto-draft', 'trash'] },
  featured: { type: 'boolean' },
  catalog_visibility: { type: 'string', enum: ['visible', 'catalog', 'search', 'hidden'] },
  short_description: { type: 'string' },
  external_url: { type: 'string', format: 'uri' },
  button_text: { type: 'string' },
  sold_individually: { type: 'boolean' },
  reviews_allowed: { type: 'boolean' },
  upsell_ids: { type: 'array', items: { type: 'integer' } },
  cross_sell_ids: { type: 'array', items: { type: 'integer' } },
  parent_id: { type: 'integer' },
  purchase_note: { type: 'string' },
  categories: { type: 'array', items: { type: 'object', props: { id: { type: 'integer' } } } },
  tags: { type: 'array', items: { type: 'object', props: { id: { type: 'integer' } } } },
  images: { type: 'array', items: IMAGE },
  attributes: {
    type: 'array',
    items: {
      type: 'object',
      props: {
        id: { type: 'integer' },
        name: { type: 'string' },
        position: { type: 'integer' },
        visible: { type: 'boolean' },
        variation: { type: 'boolean' },
        options: { type: 'array', items: { type: 'string' } },
      },
    },
  },
  default_attributes: { type: 'array', items: { type: 'object' } },
  grouped_products: { type: 'array', items: { type: 'integer' } },
  // Schema type 'date-time', which WC_REST_Controller::adjust_wp_5_5_datatype_compatibility() turns into
  // ['null', 'string'] with no format: any string passes and rest_parse_date() decides (catalog/post.ts).
  date_created: { type: 'string', nullable: 'first' },
  date_created_gmt: { type: 'string', nullable: 'first' },
};

export const PRODUCT_LIST_SPECS: Specs = {
  ...collectionSpecs([
    'date',
    'id',
    'include',
    'title',
    'slug',
    'modified',
    'menu_order',
    'price',
    'popularity',
    'rating',
  ]),
  slug: { type: 'string' },
  status: { type: 'string', enum: ['any', 'future', 'trash', ...POST_STATUSES] },
  type: { type: 'string', enum: PRODUCT_TYPES },
  sku: { type: 'string' },
  featured: { type: 'boolean' },
  category: { type: 'string' },
  tag: { type: 'string' },
  shipping_class: { type: 'string' },
  attribute: { type: 'string' },
  attribute_term: { type: 'string' },
  tax_class: { type: 'string' },
  on_sale: { type: 'boolean' },
  min_price: { type: 'string' },
  max_price: { type: 'string' },
  stock_status: { type: 'string', enum: STOCK_STATUSES },
  virtual: { type: 'boolean' },
  downloadable: { type: 'boolean' },
};
