/**
 * WC_Discounts::apply_coupon_remainder() (includes/class-wc-discounts.php): what is left of a coupon after the
 * per-item split goes a cent at a time to each unit of each item, in order, until `amount` is used up.
 *
 * WooCommerce walks every unit. Once an item's price is used up each further unit takes 0 and changes nothing,
 * and a run of units that each take a cent only adds to one number; so a quantity of 10^9 is 10^9 turns for the
 * result of a few. This walk takes those runs in one step each and leaves an item at its first unit that takes
 * nothing, with the same floats as the cent-at-a-time loop (see `addOnes()`), so its work is a few steps per
 * item. What WooCommerce itself would spend on the same walk is counted: past `PHP_REMAINDER_TURNS` turns of
 * its loop, PHP's max_execution_time (30 s) ends the request with a fatal error, and so does this.
 */
import { PhpFatalError } from '../runtime/errors.js';

/** Turns of apply_coupon_remainder()'s loop that PHP cannot run in 30 s (each calls get_discount() and more). */
export const PHP_REMAINDER_TURNS = 1e9;

/** One item as the remainder reads and writes it. */
export interface RemainderItem {
  quantity: number;
  /** This coupon's discount on the item so far (`$this->discounts[ $code ][ $key ]`). */
  own(): number;
  setOwn(value: number): void;
  /** round(price − every coupon's discount, with this coupon's at `own`), signed; 0 once nothing is left. */
  leftoverAt(own: number): number;
}

/** apply_coupon_remainder(): the cents it gave, the items' `own` updated as the loop would leave them. */
export function applyRemainder(items: RemainderItem[], amount: number): number {
  let total = 0;
  let turns = 0;
  walk: for (const item of items) {
    // for ( $i = 0; $i < $item->quantity; $i++ )
    let units = item.quantity > 0 ? Math.ceil(item.quantity) : 0;
    while (units > 0) {
      const leftover = item.leftoverAt(item.own());
      if (Number.isNaN(leftover)) {
        // min( NAN, 1 ) is NAN: it poisons the item and the total, and no later check can stop the walk.
        item.setOwn(Number.NaN);
        total = Number.NaN;
        turns += units;
        break;
      }
      if (leftover === 0) {
        // min( 0, 1 ): this unit and every later one of the item take 0 and change nothing.
        item.setOwn(item.own() + 0);
        if (total >= amount) break walk;
        turns += units;
        break;
      }
      // The loop checks `$total_discount >= $amount` after each unit, so it takes at least one.
      const short = Math.ceil(amount - total);
      const wanted = Number.isNaN(short) ? units : Math.max(1, Math.min(units, short));
      const run = leftover < 0 ? wanted : centRun(item, wanted, leftover);
      item.setOwn(addOnes(item.own(), run));
      total += run;
      units -= run;
      turns += run;
      if (total >= amount) break walk;
    }
  }
  if (turns > PHP_REMAINDER_TURNS) throw executionTimeExceeded();
  return total;
}

function executionTimeExceeded(): PhpFatalError {
  return new PhpFatalError(
    'PHP Fatal error: Maximum execution time of 30 seconds exceeded (WC_Discounts::apply_coupon_remainder())',
  );
}

/**
 * How many of the next `wanted` units surely take a cent, for an item with `leftover` ≥ 1 left: the leftover
 * only falls as `own` grows, so if it is still ≥ 1 before the run's last unit, it was before every unit.
 */
function centRun(item: RemainderItem, wanted: number, leftover: number): number {
  let run = Math.max(1, Math.min(wanted, leftover - 1));
  while (run > 1 && item.leftoverAt(addOnes(item.own(), run - 1)) < 1) run = Math.floor(run / 2);
  return run;
}

/**
 * What `k` times `x += 1` gives, in doubles. Adding 1 is exact while the sum stays in x's binade (its ulp is
 * at most 1 there) or, below zero, while it does not cross zero; only the steps into a new binade round, so
 * the runs between them are one addition each and the rest is at most a few steps per binade.
 */
export function addOnes(x: number, k: number): number {
  let value = x;
  let left = k;
  while (left > 0) {
    if (Number.isNaN(value)) return value;
    let run = 0;
    if (value < 0 && value > -(2 ** 53)) {
      run = Math.min(left, Math.floor(-value));
    } else if (value >= 1 && value < 2 ** 53) {
      let top = 2;
      while (top <= value) top *= 2;
      run = Math.min(left, Math.ceil(top - value) - 1);
    }
    if (run > 0) {
      value += run;
      left -= run;
      continue;
    }
    const next = value + 1;
    // Past 2^53 a 1 can be lost to rounding: then it is lost at every later step too.
    if (next === value) return value;
    value = next;
    left -= 1;
  }
  return value;
}
