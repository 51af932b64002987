import * as z from 'zod/mini';
import { links } from './common.js';

const dataIndexShape = z.looseObject({ slug: z.string(), description: z.string(), _links: links });
/** One entry of `/data`: `continents`, `countries` or `currencies`. */
export interface DataIndexEntry extends z.infer<typeof dataIndexShape> {}
export const dataIndexEntry: z.ZodMiniType<DataIndexEntry> = dataIndexShape;

const stateShape = z.looseObject({ code: z.string(), name: z.string() });
export interface State extends z.infer<typeof stateShape> {}

const countryShape = z.looseObject({
  code: z.string(),
  name: z.string(),
  states: z.array(stateShape as z.ZodMiniType<State>),
  _links: links,
});
/** A country and its states (an empty list when the store knows none). */
export interface Country extends z.infer<typeof countryShape> {}
export const country: z.ZodMiniType<Country> = countryShape;

const continentCountryShape = z.looseObject({
  code: z.string(),
  /**
   * The country's name, except where WooCommerce has locale information for it: there it is the currency's
   * name (a WooCommerce bug, woocommerce/woocommerce#31853). Use `/data/countries` for country names.
   */
  name: z.string(),
  currency_code: z.optional(z.string()),
  currency_pos: z.optional(z.string()),
  decimal_sep: z.optional(z.string()),
  dimension_unit: z.optional(z.string()),
  num_decimals: z.optional(z.number()),
  thousand_sep: z.optional(z.string()),
  weight_unit: z.optional(z.string()),
  states: z.array(stateShape as z.ZodMiniType<State>),
});
/** A country as a continent lists it, with its locale defaults when WooCommerce has them. */
export interface ContinentCountry extends z.infer<typeof continentCountryShape> {}

const continentShape = z.looseObject({
  code: z.string(),
  name: z.string(),
  countries: z.array(continentCountryShape as z.ZodMiniType<ContinentCountry>),
  _links: links,
});
export interface Continent extends z.infer<typeof continentShape> {}
export const continent: z.ZodMiniType<Continent> = continentShape;

const currencyShape = z.looseObject({
  code: z.string(),
  name: z.string(),
  /** As WooCommerce writes it, HTML entities included (`&#36;`, `&euro;`). */
  symbol: z.string(),
  _links: links,
});
export interface Currency extends z.infer<typeof currencyShape> {}
export const currency: z.ZodMiniType<Currency> = currencyShape;

/** A continent or country code as the route matches it (`[\w-]+`; any case). */
export const locationCode = z.string().check(z.regex(/^[\w-]+$/, 'expected a code such as "EU" or "US"'));
/** A currency code as the route matches it (`[\w-]{3}`; any case). */
export const currencyCode = z
  .string()
  .check(z.regex(/^[\w-]{3}$/, 'expected a 3-letter ISO 4217 code such as "EUR"'));
