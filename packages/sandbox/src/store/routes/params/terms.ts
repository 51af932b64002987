import type { TaxonomyDef } from '../../catalog/terms.js';
import type { Specs } from '../../rest/params.js';
import { CONTEXT } from './common.js';

export function termSpecs(def: TaxonomyDef, creating: boolean): Specs {
  const specs: Specs = {
    name: { type: 'string', required: creating },
    slug: { type: 'string' },
    description: { type: 'string' },
  };
  if (def.hierarchical) {
    specs.parent = { type: 'integer' };
    specs.display = { type: 'string', enum: ['default', 'products', 'subcategories', 'both'] };
    specs.image = { type: 'object', nullable: true };
    specs.menu_order = { type: 'integer' };
  }
  if (def.menuOrder) specs.menu_order = { type: 'integer' };
  return specs;
}

export const TERM_LIST_SPECS: Specs = {
  context: CONTEXT,
  page: { type: 'integer', min: 1 },
  per_page: { type: 'integer', min: 1, max: 100 },
  search: { type: 'string' },
  exclude: { type: 'array', items: { type: 'integer' } },
  include: { type: 'array', items: { type: 'integer' } },
  offset: { type: 'integer' },
  order: { type: 'string', enum: ['asc', 'desc'] },
  orderby: {
    type: 'string',
    enum: ['id', 'include', 'name', 'slug', 'term_group', 'description', 'count'],
  },
  hide_empty: { type: 'boolean' },
  parent: { type: 'integer' },
  product: { type: 'integer', nullable: true },
  slug: { type: 'string' },
};

/** WC_REST_Product_Categories_Controller::update_term_meta_fields(): display '' is stored, and read as 'default'. */
export function termArgs(p: Record<string, unknown>): Record<string, unknown> {
  if (p.display === '') p.display = 'default';
  return p;
}
