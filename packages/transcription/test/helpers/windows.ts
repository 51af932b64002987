/** The largest number of arrivals within any `windowMs` (arrivals ascending). */
export function busiestWindow(arrivals: readonly number[], windowMs: number): number {
  let most = 0;
  let from = 0;
  for (let to = 0; to < arrivals.length; to++) {
    while (arrivals[to]! - arrivals[from]! >= windowMs) from++;
    most = Math.max(most, to - from + 1);
  }
  return most;
}
