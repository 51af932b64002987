import type { TaxRateRec } from '../data/rows.js';
import type { Store } from '../data/store.js';

/**
 * WC_REST_Taxes_Controller::prepare_item_for_response(). `postcode` and `city` are the v1 fields: v1's
 * add_tax_rate_locales() writes each location over the last, so they hold the last postcode and city;
 * v3 appends the full `postcodes` and `cities` lists after `class`.
 */
export function presentTaxRate(store: Store, t: TaxRateRec): Record<string, unknown> {
  return {
    id: t.id,
    country: t.country,
    state: t.state,
    postcode: t.postcodes.at(-1) ?? '',
    city: t.cities.at(-1) ?? '',
    rate: t.rate,
    name: t.name,
    priority: t.priority,
    compound: t.compound,
    shipping: t.shipping,
    order: t.order,
    class: t.class || 'standard',
    postcodes: [...t.postcodes],
    cities: [...t.cities],
    _links: {
      self: [{ href: store.restUrl(`/taxes/${t.id}`) }],
      collection: [{ href: store.restUrl('/taxes') }],
    },
  };
}

/**
 * WC_REST_Tax_Classes_V1_Controller::prepare_item_for_response() passes its array through, so the key order is
 * the caller's: `slug, name` when listing, `name, slug` from WC_Tax::create_tax_class() / get_tax_class_by().
 */
export function presentTaxClass(
  store: Store,
  c: { slug: string; name: string },
  order: 'slug-first' | 'name-first',
): Record<string, unknown> {
  const fields = order === 'slug-first' ? { slug: c.slug, name: c.name } : { name: c.name, slug: c.slug };
  return { ...fields, _links: { collection: [{ href: store.restUrl('/taxes/classes') }] } };
}
