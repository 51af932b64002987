import { ADDRESS_FIELDS } from '../../customers/addresses.js';
import type { Spec, Specs } from '../../rest/params.js';

export const CONTEXT: Spec = { type: 'string', enum: ['view', 'edit'] };

/** Collection args shared by the CRUD controllers (class-wc-rest-crud-controller.php get_collection_params()). */
export function collectionSpecs(orderby: readonly string[], orderDefault: 'asc' | 'desc' = 'desc'): Specs {
  void orderDefault;
  return {
    context: CONTEXT,
    page: { type: 'integer', min: 1 },
    per_page: { type: 'integer', min: 1, max: 100 },
    search: { type: 'string' },
    after: { type: 'string', format: 'date-time' },
    before: { type: 'string', format: 'date-time' },
    modified_after: { type: 'string', format: 'date-time' },
    modified_before: { type: 'string', format: 'date-time' },
    dates_are_gmt: { type: 'boolean' },
    exclude: { type: 'array', items: { type: 'integer' } },
    include: { type: 'array', items: { type: 'integer' } },
    offset: { type: 'integer' },
    order: { type: 'string', enum: ['asc', 'desc'] },
    orderby: { type: 'string', enum: orderby },
    parent: { type: 'array', items: { type: 'integer' } },
    parent_exclude: { type: 'array', items: { type: 'integer' } },
  };
}

export const META_DATA: Spec = {
  type: 'array',
  items: {
    type: 'object',
    props: { id: { type: 'integer' }, key: { type: 'string' }, value: { type: 'mixed' } },
  },
};

/** `?force=true` on a DELETE: delete instead of trashing. */
export const FORCE: Specs = { force: { type: 'boolean' } };

/** GET of one item: only `context`. */
export const VIEW: Specs = { context: CONTEXT };

function addressSpec(withEmail: boolean): Spec {
  const props: Record<string, Spec> = {};
  for (const f of ADDRESS_FIELDS) props[f] = { type: 'string' };
  props.phone = { type: 'string' };
  if (withEmail) props.email = { type: 'string', format: 'email', nullable: true };
  return { type: 'object', props };
}

export const BILLING_SPEC = addressSpec(true);

export const SHIPPING_SPEC = addressSpec(false);
