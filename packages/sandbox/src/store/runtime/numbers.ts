/**
 * The PHP number semantics WooCommerce's values go through, so the emulator stores and answers what a real
 * install would: (int) and (float) casts, wc_format_decimal() on prices and totals, number_format() for `dp`.
 * Sources: php-src Zend/zend_operators.h (zend_dval_to_lval: out-of-range floats wrap modulo 2^64,
 * zend_dval_to_lval_cap: numeric strings saturate), WordPress rest-api.php (rest_is_integer(),
 * rest_sanitize_value_from_schema(): `(int) $value`), woocommerce includes/wc-formatting-functions.php
 * (wc_format_decimal()), wp-includes/formatting.php (_sanitize_text_fields()).
 */

import { PhpFatalError } from './errors.js';
import { sanitizeTextField } from './formatting.js';

/** A leading PHP numeric string: what (int) / (float) read from "12abc", " 1e3", ".5". */
const LEADING_NUMBER = /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/;

const TWO_63 = 2n ** 63n;
const TWO_64 = 2n ** 64n;

/** (int) of a float: NaN and infinities are 0; beyond the 64-bit range the low 64 bits are kept (two's complement). */
function floatToInt(n: number): number {
  if (!Number.isFinite(n)) return 0;
  const t = Math.trunc(n);
  if (t >= -(2 ** 63) && t < 2 ** 63) return t;
  let wrapped = BigInt(t) % TWO_64;
  if (wrapped < 0n) wrapped += TWO_64;
  // Exact as a double: a double's low 64 bits hold at most 53 significant ones.
  return Number(wrapped >= TWO_63 ? wrapped - TWO_64 : wrapped);
}

/**
 * PHP's `(int) $value` / intval(). A numeric string that is a float or overflows saturates at PHP_INT_MAX/MIN
 * (9223372036854775807 shows as 9223372036854775808 here: the nearest double).
 */
export function phpIntval(value: unknown): number {
  if (typeof value === 'number') return floatToInt(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value !== 'string') return 0;
  const m = LEADING_NUMBER.exec(value);
  if (!m) return 0;
  const text = m[0].trim();
  if (m[2] === undefined && m[3] === undefined && !text.includes('.')) {
    const big = BigInt(text);
    if (big >= -TWO_63 && big < TWO_63) return Number(big);
  }
  const n = Number(text);
  if (!Number.isFinite(n)) return 0;
  if (n >= 2 ** 63) return 2 ** 63;
  if (n < -(2 ** 63)) return -(2 ** 63);
  return Math.trunc(n);
}

/** absint(): abs(intval()). */
export function absint(value: unknown): number {
  return Math.abs(phpIntval(value));
}

/** PHP's `(float) $value`: the leading numeric part of a string ("1-7" is 1, "abc" is 0). */
export function phpFloatval(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value !== 'string') return 0;
  const m = LEADING_NUMBER.exec(value);
  return m ? Number(m[0].trim()) : 0;
}

/** is_numeric() of a string (PHP 8: leading and trailing whitespace allowed). */
export function isNumericString(value: string): boolean {
  return /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/.test(value);
}

/** PHP 8 `$a > $b` for two strings: numerically when both are numeric strings, else byte by byte. */
export function phpStringGreater(a: string, b: string): boolean {
  if (isNumericString(a) && isNumericString(b)) return Number(a) > Number(b);
  return Buffer.compare(Buffer.from(a), Buffer.from(b)) > 0;
}

/** A finite double in fixed notation with `digits` decimals, also past 1e21 where toFixed() turns exponential. */
function fixed(n: number, digits: number): string {
  const shown = Math.min(digits, 100);
  const text =
    Math.abs(n) < 1e21 ? n.toFixed(shown) : `${BigInt(n)}${shown > 0 ? `.${'0'.repeat(shown)}` : ''}`;
  // Past 100 decimals a money value's binary expansion has ended (any double of 2^-47 or more); pad with zeros.
  return digits > shown ? text + '0'.repeat(digits - shown) : text;
}

/**
 * wc_format_decimal($number) with `dp` false, as WC_Product::set_regular_price(), set_sale_price() and the order
 * items' set_total()/set_subtotal() call it: a string keeps only digits, `-` and its last `.`
 * ("5,00" is "500", "1e-7" is "1-7", "0x10" is "010", "NaN" is ""); a float is printed with 6 decimals
 * (wc_get_rounding_precision()) and its trailing zeros trimmed.
 */
export function wcFormatDecimal(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') {
    // JSON integers are PHP ints and come out as they are; anything else is a PHP float.
    if (Number.isSafeInteger(value)) return String(value);
    if (!Number.isFinite(value)) return Number.isNaN(value) ? 'nan' : value > 0 ? 'inf' : '-inf';
    return fixed(value, 6).replace(/0+$/, '').replace(/\.$/, '');
  }
  if (typeof value === 'boolean') return value ? '1' : '';
  if (typeof value !== 'string') return '';
  return sanitizeTextField(value).replace(/\.(?![^.]+$)|[^0-9.-]/g, '');
}

/** PHP's empty(): undefined, null, '', '0', 0, false and [] are empty. */
export function phpEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    value === '0' ||
    value === 0 ||
    value === false ||
    (Array.isArray(value) && value.length === 0)
  );
}

/** An amount as an order item's setter stores it: wc_format_decimal() of the float (6 decimals, trimmed). */
export function storedAmount(value: number): number {
  return Number(wcFormatDecimal(value)) || 0;
}

/**
 * number_format($n, $dp, '.', '') as wc_format_decimal($n, $dp) uses it for `dp`: fixed decimals, no "-0".
 * Any `dp` works (the emulator's callers bound it first, as PHP's memory limit bounds a real site's).
 */
export function numberFormat(n: number, dp: number): string {
  const places = Math.max(0, dp);
  const finite = Number.isFinite(n) ? n : 0;
  const text = fixed(places <= 15 ? phpRound(finite, places) : finite, places);
  return /^-[0.]*$/.test(text) ? text.slice(1) : text;
}

/**
 * PHP's default memory_limit (128M), which WordPress keeps for REST requests: formatting every money field of a
 * response with a huge `dp` (number_format() pads to `dp` digits) exhausts it, and the site answers with its
 * fatal-error page. The emulator answers the same once the formatted amounts alone would pass it.
 */
export const PHP_MEMORY_LIMIT = 128 * 1024 * 1024;

/**
 * The decimals of a response's money fields: prepare_object_for_response() takes absint($request['dp']), or the
 * store's 2 without one. The orders and refunds controllers declare `dp` (integer, no bounds) for their lists
 * only, so a single order or refund takes any value, unvalidated ("abc" is 0).
 */
export function responseDecimals(dp: unknown, storeDecimals = 2): number {
  return dp === undefined || dp === null ? storeDecimals : absint(dp);
}

/**
 * PHP's round($value, $precision, $mode) (NumberUtil::round): the scaled value is first pre-rounded to 15
 * significant digits, so 0.825 (stored as 0.82499999...) rounds to 0.83 as PHP does, where JavaScript's
 * toFixed() gives 0.82. `half_down` is PHP_ROUND_HALF_DOWN (WC_DISCOUNT_ROUNDING_MODE, and tax rounding when
 * prices include tax).
 */
export function phpRound(value: number, precision = 0, mode: 'half_up' | 'half_down' = 'half_up'): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** precision;
  // Past 2^52 a double has no fraction left to round.
  if (Math.abs(value * factor) >= 2 ** 52) return value;
  const scaled = Number((value * factor).toPrecision(15));
  const magnitude = Math.abs(scaled);
  const whole = mode === 'half_up' ? Math.floor(magnitude + 0.5) : Math.ceil(magnitude - 0.5);
  return (Math.sign(scaled) * whole) / factor;
}

/** Throws (a 500 critical error) when `fields` amounts with `dp` decimals would exhaust PHP's memory_limit. */
export function checkFormattingMemory(fields: number, dp: number): void {
  // Per amount: sign, integer digits and the point besides the `dp` decimals; twice, for the JSON copy.
  if (fields * (dp + 24) * 2 > PHP_MEMORY_LIMIT) {
    throw new PhpFatalError(
      `PHP Fatal error: Allowed memory size exhausted (number_format() of ${fields} amounts, dp=${dp})`,
    );
  }
}
