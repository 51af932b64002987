import * as z from 'zod/mini';

/**
 * Responses are loose objects (a field the store adds passes through); inputs are strict (a misspelt
 * field is an error instead of being dropped by the store). Types the user sees are interfaces, so
 * hovers and declarations say `Address`, not the structure behind it.
 */

/** WooCommerce sends money as decimal strings ("29.35", "" when unset, "-5.00" in refunds). */
export const money = z.string();

const DECIMAL = 'a decimal string such as "1.00"';
/** Money in requests: a decimal string, as the API requires (a JSON number is rejected by the store). */
export const moneyInput = z
  .string({
    error: (issue) =>
      typeof issue.input === 'number'
        ? `expected ${DECIMAL}, not the number ${issue.input} (send "${issue.input}")`
        : `expected ${DECIMAL}`,
  })
  .check(z.regex(/^-?\d+(\.\d+)?$|^$/, `expected ${DECIMAL}`));
/** Local-time `YYYY-MM-DDTHH:MM:SS` without offset; the `_gmt` twins are UTC, also without `Z`. */
export const wcDate = z.nullable(z.string());
export const dateInput = z.union([z.string(), z.date()]);
const positiveId = z.number().check(z.int(), z.positive());
export const id = positiveId;

const metaDataShape = z.looseObject({
  id: z.optional(z.number()),
  key: z.string(),
  value: z.unknown(),
  display_key: z.optional(z.string()),
});
/** One custom field (`meta_data[]`): plugins' data and your own. */
export interface MetaData extends z.infer<typeof metaDataShape> {}
export const metaData = z.array(metaDataShape as z.ZodMiniType<MetaData>);

const metaDataInputShape = z.strictObject({
  id: z.optional(z.number()),
  key: z.string(),
  value: z.unknown(),
});
/** A custom field to write: the place for data of your own. `id` updates an existing entry. */
export interface MetaDataInput extends z.input<typeof metaDataInputShape> {}
export const metaDataInput = z.array(metaDataInputShape as z.ZodMiniType<MetaDataInput, MetaDataInput>);

const addressShape = z.looseObject({
  first_name: z.string(),
  last_name: z.string(),
  company: z.string(),
  address_1: z.string(),
  address_2: z.string(),
  city: z.string(),
  state: z.string(),
  postcode: z.string(),
  country: z.string(),
  email: z.optional(z.nullable(z.string())),
  phone: z.optional(z.nullable(z.string())),
});
/** A billing or shipping address (shipping has no `email`). */
export interface Address extends z.infer<typeof addressShape> {}
export const address: z.ZodMiniType<Address> = addressShape;

const addressInputShape = z.partial(
  z.strictObject({
    ...addressShape.shape,
    email: z.string().check(z.email()),
  }),
);
export interface AddressInput extends z.input<typeof addressInputShape> {}
export const addressInput: z.ZodMiniType<AddressInput, AddressInput> = addressInputShape;

export const links = z.optional(z.record(z.string(), z.array(z.looseObject({ href: z.string() }))));

/** Filters every WooCommerce collection accepts (`WC_REST_CRUD_Controller::get_collection_params`). */
export const collectionParams = {
  context: z.optional(z.enum(['view', 'edit'])),
  page: z.optional(z.number().check(z.int(), z.minimum(1))),
  per_page: z.optional(
    z
      .number()
      .check(
        z.int(),
        z.minimum(1),
        z.maximum(100, 'per_page must be between 1 and 100 (the API rejects more)'),
      ),
  ),
  search: z.optional(z.string()),
  after: z.optional(dateInput),
  before: z.optional(dateInput),
  modified_after: z.optional(dateInput),
  modified_before: z.optional(dateInput),
  dates_are_gmt: z.optional(z.boolean()),
  include: z.optional(z.array(positiveId)),
  exclude: z.optional(z.array(positiveId)),
  offset: z.optional(z.number().check(z.int(), z.minimum(0))),
  order: z.optional(z.enum(['asc', 'desc'])),
  /** Only these fields in each object (`id` is always kept). */
  _fields: z.optional(z.array(z.string())),
};

/** Query parameters, not fields: `reassign` (customers) and the like pass through. */
export const deleteParams = z.looseObject({ force: z.optional(z.boolean()) });

/** One failed item of a batch: WooCommerce answers 200 and puts the error in the item's place. */
export const batchItemError = z.looseObject({
  id: z.number(),
  error: z.looseObject({ code: z.string(), message: z.string(), data: z.optional(z.unknown()) }),
});
export interface BatchItemError extends z.infer<typeof batchItemError> {}
