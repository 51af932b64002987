/** The bench's knobs, from the environment (see store.bench.ts for what each workload is). */
import { intEnv } from '../../../bench.tools.js';
import type { Limit } from './metrics.js';

export const LIMIT: Limit = {
  limit: intEnv('BENCH_LIMIT', 100),
  intervalMs: intEnv('BENCH_INTERVAL_MS', 5_000),
};
export const PER_PAGE = 100;
export const EXPORT_ORDERS = intEnv('BENCH_EXPORT_ORDERS', 3 * LIMIT.limit * PER_PAGE);
export const UPDATE_ORDERS = intEnv('BENCH_UPDATE_ORDERS', 1_000);
/**
 * The batch updates take a tenth of a second, so one run is at the mercy of a scheduler hiccup (single
 * runs of the same code measured 0.12 to 0.33 s): each batch client runs this many rounds, alternating
 * which goes first, and the table shows the median round.
 */
export const UPDATE_ROUNDS = intEnv('BENCH_UPDATE_ROUNDS', 9);
/** Pages in flight for `@x/store`'s export; its limiter paces them. */
export const CONCURRENCY = intEnv('BENCH_CONCURRENCY', 4);
export const SAFETY_MARGIN_MS = process.env.BENCH_SAFETY_MARGIN_MS
  ? intEnv('BENCH_SAFETY_MARGIN_MS', 50, { min: 0 })
  : undefined;
/** `BENCH_TASKS=export` runs only the export scenarios. */
export const TASKS = (process.env.BENCH_TASKS ?? 'export,update').split(',');
export const TEMPLATES = 100;
/** Export: share of the limit's ceiling. */
export const TARGET = 0.98;
/** Update: @x/store's batch over the hand-made batches, for wall time and client CPU each (issue 21). */
export const UPDATE_TARGET = 1.0;
/** The naive retry loop of the official client gives up after this many 429s on one call. */
export const MAX_RETRIES_PER_CALL = 50;
