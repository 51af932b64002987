import { ValidationError } from '@x/core';

/**
 * The currency fields the Store API puts beside every group of amounts
 * (StoreApi/Schemas/V1/AbstractSchema.php get_store_currency_response()).
 */
export interface CurrencyFields {
  currency_code: string;
  currency_symbol: string;
  currency_minor_unit: number;
  currency_decimal_separator: string;
  currency_thousand_separator: string;
  currency_prefix: string;
  currency_suffix: string;
}

/** One amount of a Store API price group, read without floating point. */
export interface Money {
  /** Whole minor units (cents for USD, yen for JPY, fils for KWD). */
  amount_minor: number;
  currency_code: string;
  currency_minor_unit: number;
  /** As the shop shows it: its separators, symbol prefix or suffix. */
  formatted: string;
}

/** A field of the group other than its currency fields (loose schemas make this any string key). */
export type AmountField<P> = Exclude<keyof P, keyof CurrencyFields> & string;

/**
 * An amount of a price group (`product.prices`, `cart.totals`, an item's `totals`), e.g.
 * `money(cart.totals, 'total_price')`. The Store API sends amounts as strings of whole minor units
 * (StoreApi/Formatters/MoneyFormatter.php), so the amount is parsed as an integer and formatted by moving the
 * decimal separator in the digits: no float ever touches it. Returns null for an amount the shop left
 * unset (`''` or null: a product without a price, shipping not yet calculated).
 */
export function money<P extends CurrencyFields>(prices: P, field: AmountField<P>): Money | null {
  if (typeof prices !== 'object' || prices === null)
    throw new ValidationError('money() prices', [
      { path: '', message: 'expected a price group with its currency fields, such as cart.totals' },
    ]);
  const raw = (prices as unknown as Record<string, unknown>)[field];
  if (raw === '' || raw === null || raw === undefined) return null;
  const unit = prices.currency_minor_unit;
  const issues = [];
  if (typeof prices.currency_code !== 'string')
    issues.push({ path: 'currency_code', message: 'expected the currency code beside the amount' });
  if (typeof raw !== 'string' || !/^-?\d+$/.test(raw))
    issues.push({ path: field, message: 'expected a string of whole minor units, such as "1250"' });
  else if (!Number.isSafeInteger(Number(raw)))
    issues.push({
      path: field,
      message: `${raw.slice(0, 40)} is beyond what amount_minor holds exactly (2^53)`,
    });
  if (!Number.isSafeInteger(unit) || unit < 0 || unit > 10)
    issues.push({ path: 'currency_minor_unit', message: 'expected an integer from 0 to 10' });
  if (issues.length > 0) throw new ValidationError('money() prices', issues);
  const text = raw as string;
  const negative = text.startsWith('-');
  const digits = (negative ? text.slice(1) : text).replace(/^0+(?=\d)/, '').padStart(unit + 1, '0');
  const major = digits.slice(0, digits.length - unit);
  const minor = digits.slice(digits.length - unit);
  // A function, so a separator holding `$&` or `$'` is inserted as it is, not read as a replacement pattern.
  const separator = prices.currency_thousand_separator ?? '';
  const grouped = major.replace(/\B(?=(\d{3})+$)/g, () => separator);
  const number = unit > 0 ? `${grouped}${prices.currency_decimal_separator ?? '.'}${minor}` : grouped;
  const amount = Number(text);
  return {
    amount_minor: amount === 0 ? 0 : amount,
    currency_code: prices.currency_code,
    currency_minor_unit: unit,
    formatted: `${negative && amount !== 0 ? '-' : ''}${prices.currency_prefix ?? ''}${number}${prices.currency_suffix ?? ''}`,
  };
}
