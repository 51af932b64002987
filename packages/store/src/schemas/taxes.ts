import * as z from 'zod/mini';
import { collectionParams, links, moneyInput } from './common.js';

export const taxRate = z.looseObject({
  id: z.number(),
  /** ISO 3166 code, upper-cased by the store; '' matches every country. */
  country: z.string(),
  state: z.string(),
  /** The last of `postcodes` (the v1 field); read `postcodes`. */
  postcode: z.string(),
  /** The last of `cities` (the v1 field); read `cities`. */
  city: z.string(),
  /** Upper-cased; ranges ("1000...2000") and wildcards ("SW1*") as given. Since WooCommerce 5.3. */
  postcodes: z.optional(z.array(z.string())),
  /** Upper-cased. Since WooCommerce 5.3. */
  cities: z.optional(z.array(z.string())),
  /** A percentage with four decimals, e.g. "20.0000". */
  rate: z.string(),
  name: z.string(),
  priority: z.number(),
  compound: z.boolean(),
  shipping: z.boolean(),
  order: z.number(),
  /** A tax class slug; `standard` for the standard class. */
  class: z.string(),
  _links: links,
});
/** A row of the store's tax table: where it applies, its percentage and how it combines. */
export interface TaxRate extends z.infer<typeof taxRate> {}

const count = z.number().check(z.int(), z.minimum(0));
const taxRateInputShape = z.partial(
  z.strictObject({
    country: z.string(),
    state: z.string(),
    /** Several postcodes separated by ';' (v1); prefer `postcodes`. */
    postcode: z.string(),
    /** Several cities separated by ';' (v1); prefer `cities`. */
    city: z.string(),
    /** Replaces the postcodes; an empty list leaves them as they are (the store ignores it). */
    postcodes: z.array(z.string()),
    /** Replaces the cities; an empty list leaves them as they are (the store ignores it). */
    cities: z.array(z.string()),
    /** A decimal string: the store refuses a JSON number here (`rest_invalid_type`). */
    rate: moneyInput,
    name: z.string(),
    priority: count,
    compound: z.boolean(),
    shipping: z.boolean(),
    order: count,
    /** `standard` or the slug of an existing class (see `client.taxes.classes.list()`). */
    class: z.string(),
  }),
);
/** Every field is optional; on create the store defaults priority 1, shipping true, class `standard`. */
export interface TaxRateInput extends z.input<typeof taxRateInputShape> {}
export const taxRateInput: z.ZodMiniType<TaxRateInput, TaxRateInput> = taxRateInputShape;

const taxRateListShape = z.strictObject({
  context: collectionParams.context,
  page: collectionParams.page,
  per_page: collectionParams.per_page,
  offset: collectionParams.offset,
  order: collectionParams.order,
  _fields: collectionParams._fields,
  /** Default `order` (the order rates are tried in), ascending. */
  orderby: z.optional(z.enum(['id', 'order', 'priority'])),
  /** Only the rates of one class: `standard` or a class slug. */
  class: z.optional(z.string()),
});
export interface TaxRateListParams extends z.input<typeof taxRateListShape> {}
export const taxRateListParams: z.ZodMiniType<TaxRateListParams, TaxRateListParams> = taxRateListShape;

export const taxClass = z.looseObject({
  slug: z.string(),
  name: z.string(),
  _links: links,
});
/** A tax class: `standard` ("Standard rate") always exists; the others are the store's own. */
export interface TaxClass extends z.infer<typeof taxClass> {}

const taxClassCreateShape = z.strictObject({
  /** The slug is made from it (`Reduced rate` → `reduced-rate`). */
  name: z.string().check(z.minLength(1, 'expected a name (the store requires one)')),
});
export interface TaxClassCreateInput extends z.input<typeof taxClassCreateShape> {}
export const taxClassCreateInput: z.ZodMiniType<TaxClassCreateInput, TaxClassCreateInput> =
  taxClassCreateShape;

/** The slugs the store's `/taxes/classes/{slug}` route accepts (`\w[\w\s-]*`). */
export const taxClassSlug = z
  .string()
  .check(z.regex(/^\w[\w\s-]*$/, 'expected a tax class slug such as "reduced-rate"'));
