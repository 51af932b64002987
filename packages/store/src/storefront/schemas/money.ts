import * as z from 'zod/mini';

/**
 * Money as the Store API sends it: strings of whole minor units, with the currency beside them
 * (StoreApi/Schemas/V1/AbstractSchema.php prepare_currency_response()). Read amounts with `money()`.
 */
export const currencyShape = {
  currency_code: z.string(),
  currency_symbol: z.string(),
  currency_minor_unit: z.number(),
  currency_decimal_separator: z.string(),
  currency_thousand_separator: z.string(),
  currency_prefix: z.string(),
  currency_suffix: z.string(),
};

/** An amount: `"1250"`; `''` where the shop has none (an unpriced product). */
export const amount = z.string();
/** An amount that is null until it can be known (shipping before an address). */
export const maybeAmount = z.nullable(z.string());

/** A group of amounts with its currency. */
export function priceGroup<S extends z.core.$ZodLooseShape>(shape: S) {
  return z.looseObject({ ...shape, ...currencyShape });
}
