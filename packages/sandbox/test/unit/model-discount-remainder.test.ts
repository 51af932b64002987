/**
 * apply_coupon_remainder() taken a run of units at a time (src/store/pricing/discount-remainder.ts) against the
 * cent-at-a-time loop WooCommerce runs (WC_Discounts, includes/class-wc-discounts.php), on small quantities.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addOnes,
  applyRemainder,
  PHP_REMAINDER_TURNS,
  type RemainderItem,
} from '../../src/store/pricing/discount-remainder.js';
import { PhpFatalError } from '../../src/store/runtime/errors.js';
import { phpRound } from '../../src/store/runtime/numbers.js';

/** An item in cents: its price, the other coupons' discounts (before and after this one's), this one's. */
interface Case {
  quantity: number;
  price: number;
  before: number;
  after: number;
  own: number;
}

function leftover(c: Case, own: number): number {
  return phpRound(c.price - (0 + c.before + own + c.after));
}

/** The loop as WooCommerce writes it: every unit, min( get_discounted_price_in_cents(), 1 ), break at `amount`. */
function reference(cases: Case[], amount: number): number {
  let total = 0;
  for (const c of cases) {
    for (let i = 0; i < c.quantity; i++) {
      const discount = Math.min(Math.abs(Math.trunc(leftover(c, c.own))), 1);
      total += discount;
      c.own += discount;
      if (total >= amount) return total;
    }
  }
  return total;
}

function items(cases: Case[]): RemainderItem[] {
  return cases.map((c) => ({
    quantity: c.quantity,
    own: () => c.own,
    setOwn: (value: number) => {
      c.own = value;
    },
    leftoverAt: (own: number) => leftover(c, own),
  }));
}

/** Cents as the model holds them: whole, or with the 4 decimals wc_add_number_precision() keeps, or thirds. */
const cents = (max: number) =>
  fc.oneof(
    fc.integer({ min: -max, max }),
    fc.integer({ min: -max * 10_000, max: max * 10_000 }).map((n) => n / 10_000),
    fc.integer({ min: -max * 3, max: max * 3 }).map((n) => n / 3),
  );

const arbCase = fc.record({
  quantity: fc.oneof(
    fc.integer({ min: -2, max: 60 }),
    fc.integer({ min: 0, max: 3000 }),
    fc.double({ min: -2, max: 60, noNaN: true }),
  ),
  price: fc.oneof(cents(80), cents(3000), cents(1e6)),
  before: fc.oneof(fc.constant(0), cents(80)),
  after: fc.oneof(fc.constant(0), cents(80)),
  own: fc.oneof(fc.constant(0), cents(80), fc.integer({ min: 0, max: 2 ** 53 })),
});

describe('apply_coupon_remainder()', () => {
  it('gives the cent-at-a-time loop’s total and per-item discounts, float for float', () => {
    fc.assert(
      fc.property(
        fc.array(arbCase, { maxLength: 5 }),
        fc.oneof(cents(200), fc.integer({ min: 1, max: 4000 })),
        (cases, amount) => {
          const old = cases.map((c) => ({ ...c }));
          const now = cases.map((c) => ({ ...c }));
          const expected = reference(old, amount);
          const got = applyRemainder(items(now), amount);
          expect(Object.is(got, expected)).toBe(true);
          expect(now.map((c) => c.own)).toEqual(old.map((c) => c.own));
          expect(now.every((c, i) => Object.is(c.own, old[i]!.own))).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('a billion units of a line whose price is used up take a few steps, not a billion', () => {
    let reads = 0;
    const c: Case = { quantity: 1e9, price: 100, before: 0, after: 0, own: 0 };
    const item = items([c])[0]!;
    const counted = {
      ...item,
      leftoverAt: (own: number) => {
        reads++;
        return item.leftoverAt(own);
      },
    };
    expect(applyRemainder([counted], 500)).toBe(100);
    expect(c.own).toBe(100);
    expect(reads).toBeLessThan(100);
  });

  it('past what PHP runs in 30 s it is max_execution_time’s fatal error, as WooCommerce’s loop would be', () => {
    const c: Case = { quantity: PHP_REMAINDER_TURNS + 1, price: 100, before: 0, after: 0, own: 0 };
    expect(() => applyRemainder(items([c]), 500)).toThrow(PhpFatalError);
  });
});

describe('addOnes()', () => {
  it('is k times `x += 1`', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ noNaN: true, min: -1e4, max: 1e4 }),
          fc.integer().map((n) => n / 7),
          fc.double({ noNaN: true, min: 2 ** 52, max: 2 ** 54 }),
        ),
        fc.integer({ min: 0, max: 3000 }),
        (x, k) => {
          let v = x;
          for (let i = 0; i < k; i++) v += 1;
          expect(Object.is(addOnes(x, k), v)).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
