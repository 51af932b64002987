/** PHP's number semantics as src/store/runtime/numbers.ts mirrors them (php-src, WordPress, WooCommerce sources). */
import { describe, expect, it } from 'vitest';
import {
  absint,
  checkFormattingMemory,
  numberFormat,
  phpFloatval,
  phpIntval,
  phpStringGreater,
  responseDecimals,
  wcFormatDecimal,
} from '../../src/store/runtime/numbers.js';

describe('(int): zend_dval_to_lval / zend_dval_to_lval_cap', () => {
  it.each([
    [12.9, 12],
    [-12.9, -12],
    [1e308, 0],
    [2 ** 63, -(2 ** 63)],
    [2 ** 64 + 2 ** 12, 2 ** 12],
    [1e19, Number(10n ** 19n - 2n ** 64n)],
    [Infinity, 0],
    [Number.NaN, 0],
    ['42', 42],
    [' 7 apples', 7],
    ['1e3', 1000],
    ['1e308', 2 ** 63],
    ['-1e308', -(2 ** 63)],
    ['99999999999999999999', 2 ** 63],
    ['1e400', 0],
    ['0x10', 0],
    ['abc', 0],
    [true, 1],
    [null, 0],
  ])('(int) %j is %j', (value, int) => {
    expect(phpIntval(value)).toBe(int);
  });

  it('absint() and (float) of strings', () => {
    expect(absint('-3')).toBe(3);
    expect(absint('abc')).toBe(0);
    expect(phpFloatval('1-7')).toBe(1);
    expect(phpFloatval('010')).toBe(10);
    expect(phpFloatval('.5x')).toBe(0.5);
    expect(phpFloatval('')).toBe(0);
  });

  it('PHP 8 string comparison: numeric strings as numbers, others byte by byte', () => {
    expect(phpStringGreater('10', '9')).toBe(true);
    expect(phpStringGreater('1-7', '0.5')).toBe(true);
    expect(phpStringGreater('', '5')).toBe(false);
  });
});

describe('wc_format_decimal($number) without dp', () => {
  it.each([
    ['19.99', '19.99'],
    ['5,00', '500'],
    ['1e-7', '1-7'],
    ['1.2.3', '12.3'],
    ['5.', '5'],
    ['.5', '.5'],
    ['NaN', ''],
    ['<script>9</script>4', '4'],
    ['1%2050', '150'],
    ['%%2020', ''],
    [2.5, '2.5'],
    [3, '3'],
    [1e20, '100000000000000000000'],
    [null, ''],
  ])('%j → %j', (value, formatted) => {
    expect(wcFormatDecimal(value)).toBe(formatted);
  });
});

describe('number_format() for dp', () => {
  it('pads past 100 decimals, prints past 1e21 without an exponent, never "-0"', () => {
    expect(numberFormat(12.5, 101)).toBe(`12.5${'0'.repeat(100)}`);
    expect(numberFormat(1e21, 2)).toBe('1000000000000000000000.00');
    expect(numberFormat(-0.001, 2)).toBe('0.00');
    expect(numberFormat(-1.5, 0)).toBe('-2');
  });

  it('dp defaults to 2, is absint otherwise, and fails like PHP past memory_limit', () => {
    expect([responseDecimals(undefined), responseDecimals('-4'), responseDecimals('x')]).toEqual([2, 4, 0]);
    expect(() => checkFormattingMemory(7, 101)).not.toThrow();
    expect(() => checkFormattingMemory(7, 1e9)).toThrow('Allowed memory size exhausted');
  });
});
