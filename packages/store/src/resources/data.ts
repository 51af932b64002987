import { type APIPromise, type BaseClient, parseInput, type RequestOptions } from '@x/core';
import * as z from 'zod/mini';
import {
  type Continent,
  type Country,
  type Currency,
  continent,
  country,
  currency,
  currencyCode,
  type DataIndexEntry,
  dataIndexEntry,
  locationCode,
} from '../schemas/data.js';
import type { StoreContext } from './collection.js';

/** Reference data the store knows (`/data`): continents, countries with their states, currencies. */
export class Data {
  readonly #client: BaseClient;

  constructor(context: StoreContext) {
    this.#client = context.client;
  }

  /** The data resources the store offers. */
  index(options?: RequestOptions): APIPromise<DataIndexEntry[]> {
    return this.#client.request({
      method: 'GET',
      path: '/data',
      schema: z.array(dataIndexEntry),
      what: 'data.index',
      options,
    });
  }

  /** Every continent with its countries and their states (one response, not paged). */
  listContinents(options?: RequestOptions): APIPromise<Continent[]> {
    return this.#request('/data/continents', z.array(continent), 'data.listContinents', options);
  }

  /** One continent by code (`EU`, `na`, ...); an unknown code is a 404 `woocommerce_rest_data_invalid_location`. */
  getContinent(code: string, options?: RequestOptions): APIPromise<Continent> {
    return this.#request(
      () => `/data/continents/${checkCode(locationCode, code)}`,
      continent,
      'data.getContinent',
      options,
    );
  }

  /** Every country with its states (one response, not paged). */
  listCountries(options?: RequestOptions): APIPromise<Country[]> {
    return this.#request('/data/countries', z.array(country), 'data.listCountries', options);
  }

  /** One country by ISO 3166 alpha-2 code (`US`, `de`, ...). */
  getCountry(code: string, options?: RequestOptions): APIPromise<Country> {
    return this.#request(
      () => `/data/countries/${checkCode(locationCode, code)}`,
      country,
      'data.getCountry',
      options,
    );
  }

  /** Every currency the store can sell in. */
  listCurrencies(options?: RequestOptions): APIPromise<Currency[]> {
    return this.#request('/data/currencies', z.array(currency), 'data.listCurrencies', options);
  }

  /** One currency by ISO 4217 code (`EUR`, `jpy`, ...). */
  getCurrency(code: string, options?: RequestOptions): APIPromise<Currency> {
    return this.#request(
      () => `/data/currencies/${checkCode(currencyCode, code)}`,
      currency,
      'data.getCurrency',
      options,
    );
  }

  /** The store's own currency (the `woocommerce_currency` setting). */
  currentCurrency(options?: RequestOptions): APIPromise<Currency> {
    return this.#request('/data/currencies/current', currency, 'data.currentCurrency', options);
  }

  #request<S extends z.ZodMiniType>(
    path: string | (() => string),
    schema: S,
    what: string,
    options: RequestOptions | undefined,
  ): APIPromise<z.infer<S>> {
    return this.#client.request(() => ({
      method: 'GET' as const,
      path: typeof path === 'string' ? path : path(),
      schema,
      what,
      options,
    }));
  }
}

function checkCode(schema: z.ZodMiniType<string>, value: unknown): string {
  return parseInput(z.object({ code: schema }), { code: value }, 'code').code as string;
}
