/**
 * How close a client came to the most a strict sliding-window limit ("at most `limit` accepted requests
 * in any window of `intervalMs`", which is what the sandbox enforces) allows. Pure functions.
 */

export interface Limit {
  limit: number;
  intervalMs: number;
}

/**
 * The brief's measure: requests accepted / the most a strict sliding window admits in `elapsedMs`
 * starting with a full allowance, `limit × (floor(elapsed / interval) + 1)`. Coarse on purpose: it
 * only drops when a whole window is lost, and a final window that is not full counts against the
 * client, so it is meaningful only when the workload is a multiple of `limit`.
 */
export function ceilingUse(accepted: number, elapsedMs: number, { limit, intervalMs }: Limit) {
  const ceiling = limit * (Math.floor(elapsedMs / intervalMs) + 1);
  return { ceiling, ratio: accepted / ceiling };
}

/**
 * The precise measure, from the server's own arrival times. Under the limit, request `j` cannot be
 * accepted before request `j - limit` + `intervalMs`, so the first request of window `m`
 * (index `m × limit`) arrives at least `m × intervalMs` after the very first one. Pacing is that lower
 * bound over what the server actually saw, for the last full window start `m = floor((n - 1) / limit)`:
 * 100% means every window opened the moment the limit allowed; the safety margin alone costs
 * `margin / interval`. How fast the client then drains a window is its own throughput, not the
 * limiter's, and is left out. `undefined` when the run fits in one window (never rate-limit-bound).
 */
export function pacing(arrivals: readonly number[], { limit, intervalMs }: Limit): number | undefined {
  const sorted = [...arrivals].sort((a, b) => a - b);
  const windows = Math.floor((sorted.length - 1) / limit);
  if (windows < 1) return undefined;
  return (windows * intervalMs) / (sorted[windows * limit]! - sorted[0]!);
}

/** The largest number of arrivals in any window of `intervalMs` (a strict server admits at most `limit`). */
export function busiestWindow(arrivals: readonly number[], intervalMs: number): number {
  const sorted = [...arrivals].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while (sorted[end]! - sorted[start]! >= intervalMs) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

export const percent = (ratio: number | undefined) =>
  ratio === undefined ? 'n/a' : `${(ratio * 100).toFixed(1)}%`;

/** A plain aligned text table: numbers right-aligned, text left-aligned. */
export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const numeric = header.map((_, i) => rows.every((row) => /^[\d.,%x×-]+$|^n\/a$/.test(row[i]!)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (numeric[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
