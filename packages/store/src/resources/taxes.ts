import { type APIPromise, type PagePromise, parseInput, type RequestOptions } from '@x/core';
import * as z from 'zod/mini';
import {
  type TaxClass,
  type TaxClassCreateInput,
  type TaxRate,
  type TaxRateInput,
  type TaxRateListParams,
  taxClass,
  taxClassCreateInput,
  taxClassSlug,
  taxRate,
  taxRateInput,
  taxRateListParams,
} from '../schemas/taxes.js';
import {
  type BatchInput,
  type BatchOptions,
  type BatchResult,
  Collection,
  type DeleteParams,
  type GetParams,
  type ListOptions,
  type Schemas,
  type StoreContext,
} from './collection.js';

const taxRateSchemas = {
  item: taxRate,
  create: taxRateInput,
  list: taxRateListParams,
  name: 'taxes',
  trashable: false,
} satisfies Schemas;

const taxClassSchemas = {
  item: taxClass,
  create: taxClassCreateInput,
  list: z.strictObject({ context: z.optional(z.enum(['view', 'edit'])) }),
  name: 'taxes.classes',
  trashable: false,
} satisfies Schemas;

/** `/taxes/classes`: the standard class and the store's own (`reduced-rate`, `zero-rate` on a fresh store). */
export class TaxClasses {
  readonly #context: StoreContext;
  readonly #collection: Collection<typeof taxClassSchemas>;

  constructor(context: StoreContext) {
    this.#context = context;
    this.#collection = new Collection(context, '/taxes/classes', taxClassSchemas);
  }

  /** Every class, `standard` first, in one page (the store does not page them). */
  list(params?: { context?: 'view' | 'edit' }, options?: RequestOptions): PagePromise<TaxClass> {
    return this.#collection.listOnePage(params, options);
  }

  /** The slug is made from `name`; a name or slug already in use fails with `woocommerce_rest_tax_class_exists` or `..._slug_exists`. */
  create(input: TaxClassCreateInput, options?: RequestOptions): APIPromise<TaxClass> {
    return this.#collection.create(input, options);
  }

  /** The class with that slug, or `null`: the store answers a list of it, empty when there is none. */
  get(slug: string, options?: RequestOptions): APIPromise<TaxClass | null> {
    return this.#context.client.request(() => ({
      method: 'GET' as const,
      path: `/taxes/classes/${this.#slug(slug, 'get')}`,
      schema: z.pipe(
        z.array(taxClass),
        z.transform((list) => list[0] ?? null),
      ),
      what: 'taxes.classes.get',
      options,
    }));
  }

  /** Deletes the class and every rate of that class (always `force=true`; `standard` cannot be deleted). */
  delete(slug: string, options?: RequestOptions): APIPromise<TaxClass> {
    return this.#context.client.request(() => ({
      method: 'DELETE' as const,
      path: `/taxes/classes/${this.#slug(slug, 'delete')}`,
      query: { force: true },
      schema: taxClass,
      what: 'taxes.classes.delete',
      options,
    }));
  }

  #slug(slug: unknown, method: string): string {
    const checked = parseInput(z.object({ slug: taxClassSlug }), { slug }, `taxes.classes.${method}`);
    return encodeURIComponent(checked.slug);
  }
}

/** `/taxes`: tax rates (country, state, postcodes, cities, rate, class) and, under `classes`, tax classes. */
export class Taxes {
  readonly #collection: Collection<typeof taxRateSchemas>;
  /** `/taxes/classes`. */
  readonly classes: TaxClasses;

  constructor(context: StoreContext) {
    this.#collection = new Collection(context, '/taxes', taxRateSchemas);
    this.classes = new TaxClasses(context);
  }

  /** Unsent fields take the store's defaults: priority 1, compound false, shipping true, class `standard`. */
  create(input: TaxRateInput, options?: RequestOptions): APIPromise<TaxRate> {
    return this.#collection.create(input, options);
  }

  get(id: number, params?: GetParams, options?: RequestOptions): APIPromise<TaxRate> {
    return this.#collection.get(id, params, options);
  }

  /** Only the fields you pass change; `postcodes`/`cities` replace the lists (an empty list changes nothing). */
  update(id: number, input: TaxRateInput, options?: RequestOptions): APIPromise<TaxRate> {
    return this.#collection.update(id, input, options);
  }

  /** Rates have no trash, so this always deletes for good (`force=true`). */
  delete(id: number, params?: DeleteParams, options?: RequestOptions): APIPromise<TaxRate> {
    return this.#collection.delete(id, params, options);
  }

  /** Sorted by `order` ascending unless told; `class` narrows to one class; `for await` walks every page. */
  list(params?: TaxRateListParams, options?: ListOptions): PagePromise<TaxRate> {
    return this.#collection.list(params, options);
  }

  /** Any number of creates, updates and deletes, sent in requests of at most 100 items. */
  batch(
    input: BatchInput<TaxRateInput, TaxRateInput>,
    options?: BatchOptions,
  ): Promise<BatchResult<TaxRate>> {
    return this.#collection.batch(input, options);
  }
}
