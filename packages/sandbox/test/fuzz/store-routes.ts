/**
 * Every wc/v3 route family as a template, and an arbitrary that fills a template with the id of a real record
 * (so a random body reaches a handler that has something to change), an unknown id, or an absurd one.
 */
import fc from 'fast-check';
import type { FuzzStore } from './store-harness.js';

/** `{kind}` placeholders take an id of that kind; `{group}`, `{setting}`, ... take names the store lists. */
export const WRITE_ROUTES = [
  '/products',
  '/products/{product}',
  '/products/batch',
  '/products/{variable}/variations',
  '/products/{variable}/variations/{variation}',
  '/products/{variable}/variations/batch',
  '/products/categories',
  '/products/categories/{term}',
  '/products/categories/batch',
  '/products/tags/{term}',
  '/products/tags/batch',
  '/products/attributes',
  '/products/attributes/{attribute}',
  '/products/attributes/batch',
  '/products/attributes/{attribute}/terms',
  '/products/attributes/{attribute}/terms/{term}',
  '/products/attributes/{attribute}/terms/batch',
  '/products/shipping_classes',
  '/products/shipping_classes/batch',
  '/products/reviews',
  '/products/reviews/{review}',
  '/products/reviews/batch',
  '/orders',
  '/orders/{order}',
  '/orders/batch',
  '/orders/{order}/notes',
  '/orders/{order}/notes/{note}',
  '/orders/{refund_order}/refunds',
  '/orders/{refund_order}/refunds/{refund}',
  '/customers',
  '/customers/{customer}',
  '/customers/batch',
  '/coupons',
  '/coupons/{coupon}',
  '/coupons/batch',
  '/taxes',
  '/taxes/{tax}',
  '/taxes/batch',
  '/taxes/classes',
  '/taxes/classes/{taxclass}',
  '/webhooks',
  '/webhooks/{webhook}',
  '/webhooks/batch',
  '/settings/batch',
  '/settings/{group}/batch',
  '/settings/{group}/{setting}',
  '/shipping/zones',
  '/shipping/zones/{zone}',
  '/shipping/zones/{zone}/locations',
  '/shipping/zones/{zone}/methods',
  '/shipping/zones/{zone}/methods/{method}',
  '/payment_gateways/{gateway}',
  '/system_status/tools/{tool}',
] as const;

/** Routes with only a GET (reports, system status, data, downloads): reached by query-string fuzzing. */
export const READ_ROUTES = [
  '',
  '/refunds',
  '/customers/{customer}/downloads',
  '/reports',
  '/reports/sales',
  '/reports/top_sellers',
  '/reports/orders/totals',
  '/reports/products/totals',
  '/reports/customers/totals',
  '/reports/coupons/totals',
  '/reports/reviews/totals',
  '/settings',
  '/settings/{group}',
  '/shipping_methods',
  '/shipping_methods/{gateway}',
  '/system_status',
  '/system_status/tools',
  '/payment_gateways',
  '/data',
  '/data/continents',
  '/data/continents/{continent}',
  '/data/countries',
  '/data/countries/{country}',
  '/data/currencies',
  '/data/currencies/current',
  '/data/currencies/{currency}',
] as const;

export const ALL_ROUTES = [...WRITE_ROUTES, ...READ_ROUTES] as const;

const NAMES: Record<string, (f: FuzzStore) => readonly string[]> = {
  group: (f) => f.settingsGroups,
  setting: (f) => f.settingIds,
  gateway: (f) => f.gateways,
  tool: (f) => f.tools,
  taxclass: () => ['standard', 'reduced-rate', 'zero-rate', 'Reduced rate'],
  continent: () => ['EU', 'NA', 'eu', 'XX'],
  country: () => ['US', 'CA', 'de', 'XX'],
  currency: () => ['USD', 'EUR', 'usd', 'XXX'],
};

/** One placeholder's value: mostly a real one, sometimes unknown, absurd or a prototype's property. */
function fill(f: FuzzStore, kind: string): fc.Arbitrary<string> {
  const real = NAMES[kind]?.(f) ?? (f.ids[kind] ?? []).map(String);
  return fc.oneof(
    { weight: 6, arbitrary: real.length > 0 ? fc.constantFrom(...real) : fc.constant('1') },
    fc.integer({ min: 0, max: 60 }).map(String),
    fc.constantFrom(
      '99999999999999999999',
      '9223372036854775808',
      '007',
      '__proto__',
      'constructor',
      'toString',
    ),
  );
}

/** A route from `routes` with its placeholders filled. */
export function routePath(f: FuzzStore, routes: readonly string[]): fc.Arbitrary<string> {
  return fc.constantFrom(...routes).chain((template) => {
    const kinds = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    if (kinds.length === 0) return fc.constant(template);
    return fc.tuple(...kinds.map((k) => fill(f, k))).map((values) => {
      let i = 0;
      return template.replace(/\{\w+\}/g, () => encodeURIComponent(values[i++]!));
    });
  });
}
