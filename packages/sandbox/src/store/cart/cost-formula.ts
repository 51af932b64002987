/**
 * The arithmetic of a flat rate's cost (WC_Shipping_Flat_Rate::evaluate_cost() through WC_Eval_Math::evaluate()):
 * numbers, `+ - * /`, unary minus and parentheses. Anything it cannot read costs 0, as WC_Eval_Math's errors do;
 * a division by zero too. Deeply nested input is refused before it could exhaust the stack.
 */

const MAX_DEPTH = 64;

export function evaluateCost(expr: string): number {
  const src = expr.replace(/\s+/g, '');
  let at = 0;
  let depth = 0;
  const fail = (): never => {
    throw new Error('unreadable');
  };
  const number = (): number => {
    const m = /^\d*\.?\d+|^\d+\.?/.exec(src.slice(at));
    if (!m) return fail();
    at += m[0].length;
    return Number(m[0]);
  };
  const factor = (): number => {
    if (src[at] === '-') {
      at++;
      return -factor();
    }
    if (src[at] === '(') {
      if (++depth > MAX_DEPTH) fail();
      at++;
      const v = sum();
      if (src[at] !== ')') fail();
      at++;
      depth--;
      return v;
    }
    return number();
  };
  const product = (): number => {
    let v = factor();
    while (src[at] === '*' || src[at] === '/') {
      const op = src[at++];
      const r = factor();
      if (op === '/' && r === 0) fail();
      v = op === '*' ? v * r : v / r;
    }
    return v;
  };
  const sum = (): number => {
    let v = product();
    while (src[at] === '+' || src[at] === '-') {
      const op = src[at++];
      const r = product();
      v = op === '+' ? v + r : v - r;
    }
    return v;
  };
  try {
    if (src === '') return 0;
    const v = sum();
    return at === src.length && Number.isFinite(v) ? v : 0;
  } catch {
    return 0;
  }
}
