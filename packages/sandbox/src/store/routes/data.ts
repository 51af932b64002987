import { CONTINENTS, COUNTRIES, CURRENCIES, currencySymbolOf, localeInfo, statesOf } from '../data/geo.js';
import { storeCurrency } from '../data/options.js';
import type { Store } from '../data/store.js';
import { type Ctx, READABLE, type Result, type Router } from '../rest/router.js';
import { forbidden, RestError } from '../runtime/errors.js';

/**
 * /data, /data/continents[/{location}], /data/countries[/{location}], /data/currencies[/current|/{currency}]:
 * WC_REST_Data_Controller, WC_REST_Data_Continents_Controller, WC_REST_Data_Countries_Controller and
 * WC_REST_Data_Currencies_Controller (Version3). All read the `settings` capability.
 */

function canList(ctx: Ctx): void {
  if (!ctx.key) throw forbidden(false, 'woocommerce_rest_cannot_view', 'Sorry, you cannot list resources.');
}

/** get_item_permissions_check(): the currency routes' single-item reads. */
function canView(ctx: Ctx): void {
  if (!ctx.key)
    throw forbidden(false, 'woocommerce_rest_cannot_view', 'Sorry, you cannot view this resource.');
}

const links = (store: Store, base: string, code: string) => ({
  self: [{ href: store.restUrl(`/${base}/${code}`) }],
  collection: [{ href: store.restUrl(`/${base}`) }],
});

const INDEX = [
  ['continents', 'List of supported continents, countries, and states.'],
  ['countries', 'List of supported states in a given country.'],
  ['currencies', 'List of supported currencies.'],
] as const;

function index(ctx: Ctx): Result {
  canList(ctx);
  const body = INDEX.map(([slug, description]) => ({
    slug,
    description,
    _links: links(ctx.store, 'data', slug),
  }));
  return { status: 200, body };
}

const states = (code: string) => (statesOf(code) ?? []).map(([c, name]) => ({ code: c, name }));

const invalidLocation = () =>
  new RestError(
    404,
    'woocommerce_rest_data_invalid_location',
    'There are no locations matching these parameters.',
  );

/**
 * WC_REST_Data_Continents_Controller::get_continent(). A country with locale information is array_merge()d with
 * it, and locale-info.php's `name` is the currency's: such countries come back named after their currency
 * (woocommerce/woocommerce#31853, still open), e.g. AD is "Euro".
 */
function continent(code: string): Record<string, unknown> | null {
  const c = CONTINENTS.get(code);
  if (!c) return null;
  const countries = c.countries.flatMap((cc) => {
    const name = COUNTRIES.get(cc);
    if (name === undefined) return [];
    const info = localeInfo(cc);
    return [{ code: cc, name, ...(info ?? {}), states: states(cc) }];
  });
  return { code, name: c.name, countries };
}

function continents(ctx: Ctx): Result {
  canList(ctx);
  const body = [...CONTINENTS.keys()].map((code) => ({
    ...continent(code),
    _links: links(ctx.store, 'data/continents', code.toLowerCase()),
  }));
  return { status: 200, body };
}

function oneContinent(ctx: Ctx): Result {
  canList(ctx);
  const code = (ctx.urlParams.location ?? '').toUpperCase();
  const c = continent(code);
  if (!c) throw invalidLocation();
  return { status: 200, body: { ...c, _links: links(ctx.store, 'data/continents', code.toLowerCase()) } };
}

function country(ctx: Ctx, code: string): Record<string, unknown> | null {
  const name = COUNTRIES.get(code);
  if (name === undefined) return null;
  return { code, name, states: states(code), _links: links(ctx.store, 'data/countries', code.toLowerCase()) };
}

function countries(ctx: Ctx): Result {
  canList(ctx);
  return { status: 200, body: [...COUNTRIES.keys()].map((code) => country(ctx, code)) };
}

function oneCountry(ctx: Ctx): Result {
  canList(ctx);
  const c = country(ctx, (ctx.urlParams.location ?? '').toUpperCase());
  if (!c) throw invalidLocation();
  return { status: 200, body: c };
}

function currency(ctx: Ctx, code: string): Record<string, unknown> | null {
  const name = CURRENCIES.get(code);
  if (name === undefined) return null;
  return { code, name, symbol: currencySymbolOf(code), _links: links(ctx.store, 'data/currencies', code) };
}

function currencies(ctx: Ctx): Result {
  canList(ctx);
  return { status: 200, body: [...CURRENCIES.keys()].map((code) => currency(ctx, code)) };
}

function oneCurrency(ctx: Ctx): Result {
  canView(ctx);
  const c = currency(ctx, (ctx.urlParams.currency ?? '').toUpperCase());
  if (!c) {
    throw new RestError(
      404,
      'woocommerce_rest_data_invalid_currency',
      'There are no currencies matching these parameters.',
    );
  }
  return { status: 200, body: c };
}

/** get_current_item(): the store's woocommerce_currency, not validated (an unknown code answers `false`'s fields). */
function currentCurrency(ctx: Ctx): Result {
  canView(ctx);
  const code = storeCurrency(ctx.store);
  return { status: 200, body: currency(ctx, code) ?? { _links: links(ctx.store, 'data/currencies', code) } };
}

export function registerData(router: Router, _store: Store): void {
  router.add('/wc/v3/data', READABLE, index);
  router.add('/wc/v3/data/continents', READABLE, continents);
  router.add('/wc/v3/data/continents/(?P<location>[\\w-]+)', READABLE, oneContinent);
  router.add('/wc/v3/data/countries', READABLE, countries);
  router.add('/wc/v3/data/countries/(?P<location>[\\w-]+)', READABLE, oneCountry);
  router.add('/wc/v3/data/currencies', READABLE, currencies);
  router.add('/wc/v3/data/currencies/current', READABLE, currentCurrency);
  router.add('/wc/v3/data/currencies/(?P<currency>[\\w-]{3})', READABLE, oneCurrency);
}
