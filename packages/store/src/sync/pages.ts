import { PaginationError, type RequestOptions } from '@x/core';
import {
  type CustomerCheckpoint,
  checkpointLimits,
  fromSeconds,
  instantSeconds,
  type ModifiedCheckpoint,
  type SyncCheckpoint,
  toSeconds,
} from './checkpoint.js';

export type Resource = 'orders' | 'products' | 'customers';
export type Row = {
  id: number;
  date_modified?: string | null;
  date_modified_gmt?: string | null;
  date_created_gmt?: string | null;
};
export type Page = { items: Row[]; marks: Array<() => SyncCheckpoint>; end: SyncCheckpoint; done: boolean };
/** One GET of the route (through the client's request loop: auth, retries, the rate limiter). */
export type Fetch = (
  query: Record<string, unknown>,
  options: RequestOptions | undefined,
) => Promise<{ data: Row[]; response: Response; requestId: string | undefined }>;

/**
 * Orders and products, by keyset on `date_modified_gmt` (see resources/sync.ts for WooCommerce's rules).
 *
 * Invariant (what a checkpoint promises): every version of a record whose `date_modified_gmt` is before
 * `at` has been yielded, and `seen` holds every version yielded at or after `at`.
 *
 * WooCommerce filters on the GMT column (`dates_are_gmt`) but sorts on the local `post_modified` (products
 * without an id tiebreak). When the store's clock falls back (DST, or a new timezone) local order is not GMT
 * order: a record saved before the change can sort after ones saved after it. A record the page did not
 * reach sorts at or after the page's last row in local time; if its local-GMT offset is at most `high` (the
 * largest offset seen since the change began), its GMT is at least `last GMT - (high - last offset)`. So the
 * cursor never moves past that, the stretch is read again, and rows already in `seen` are dropped. The offset
 * is a step function of time, so once the cursor reaches the first row seen with a lower offset (`lower`),
 * nothing from before the change is left unread and `high` is forgotten. Out-of-order rows never throw.
 *
 * Rows at or after the second of the response's `Date` are held back: the record may change again within
 * that second, and that second edit would have the same `date_modified_gmt` as the version already read.
 */
export async function* modifiedPages(
  get: Fetch,
  resource: Resource,
  cp: ModifiedCheckpoint,
  perPage: number,
  options?: RequestOptions,
) {
  let at = cp.modified_gmt === null ? null : toSeconds(cp.modified_gmt);
  const seen = new Map<string, [number, number]>();
  const see = (id: number, second: number) => seen.set(`${id} ${second}`, [id, second]);
  if (at !== null) for (const id of cp.ids) see(id, at);
  for (const [id, second] of cp.ahead ?? []) see(id, toSeconds(second));
  let high: number | null = cp.offset ?? null;
  let lower = cp.lower_from === undefined ? null : toSeconds(cp.lower_from);
  const moveTo = (second: number) => {
    at = second;
    for (const [key, [, s]] of seen) if (s < second) seen.delete(key);
    if (lower !== null && second >= lower) {
      high = null;
      lower = null;
    }
  };
  const snapshot = (): ModifiedCheckpoint => {
    const ids: number[] = [];
    const ahead: Array<[number, string]> = [];
    const cap = checkpointLimits.versions;
    for (const [id, s] of seen.values()) {
      if (s === at) ids.length < cap && ids.push(id);
      else if (ahead.length < cap) ahead.push([id, fromSeconds(s)]);
    }
    return {
      v: 1,
      resource: resource as 'orders',
      modified_gmt: at === null ? null : fromSeconds(at),
      ids,
      ...(ahead.length > 0 ? { ahead } : {}),
      ...(high !== null ? { offset: high } : {}),
      ...(lower !== null ? { lower_from: fromSeconds(lower) } : {}),
    };
  };
  // Reading only [at, window] without the ids seen there: after a whole page of seen rows. Not `exclude` in
  // general: it would also hide a seen record that has since changed, and so moved past `window`.
  let window: number | null = null;
  let probe: { at: number; seen: Array<[string, [number, number]]> } | null = null;
  // Rows held back at the store's current second come on the next request, once that second is over. A run
  // waits for that once (so a sync just after a write sees it); later ones are the next sync's: a run that
  // waited every time would chase a busy store for ever.
  let pause = false;
  let waited = false;
  for (;;) {
    if (pause) await new Promise((resolve) => setTimeout(resolve, 1010 - (Date.now() % 1000)));
    waited ||= pause;
    pause = false;
    const excluded = window === null ? undefined : [...new Set([...seen.values()].map(([id]) => id))];
    const { data, response, requestId } = await get(
      {
        orderby: 'modified',
        order: 'asc',
        per_page: perPage,
        dates_are_gmt: true,
        modified_after: at === null ? undefined : fromSeconds(at - 1),
        modified_before: window === null ? undefined : fromSeconds(window + 1),
        exclude: excluded,
      },
      options,
    );
    const date = Date.parse(response.headers.get('date') ?? '');
    // Without `Date` (hidden cross-origin in a browser) the clock is unknown: never caught up past a second.
    const now = Number.isFinite(date) ? Math.floor(date / 1000) : null;
    const items: Row[] = [];
    const marks: Page['marks'] = [];
    let last: { second: number; offset: number } | undefined;
    let held = false;
    for (const row of data) {
      const second =
        typeof row.date_modified_gmt === 'string' ? instantSeconds(row.date_modified_gmt) : Number.NaN;
      const fault = !Number.isFinite(second)
        ? `${resource} ${row.id} has no date_modified_gmt`
        : (at !== null && second < at) || (window !== null && (second > window || excluded!.includes(row.id)))
          ? `${resource} came back outside the filters asked for (the server ignores modified_after, modified_before or exclude)`
          : undefined;
      if (fault) throw stuck(fault, response, requestId);
      const local = typeof row.date_modified === 'string' ? instantSeconds(row.date_modified) : Number.NaN;
      // Without a local date, assume the server sorts on the GMT one.
      const offset = Number.isFinite(local) ? local - second : 0;
      if (high === null || offset > high) high = offset;
      if (offset < high && (lower === null || second < lower)) lower = second;
      last = { second, offset };
      if (now !== null && second >= now) {
        held ||= second === now;
        continue;
      }
      if (seen.has(`${row.id} ${second}`)) continue;
      see(row.id, second);
      items.push(row);
      const mark = snapshot();
      marks.push(() => mark);
    }
    const full = data.length === perPage;
    let done = false;
    const undo = probe;
    probe = null;
    const newest = Math.max(...[...seen.values()].map(([, s]) => s));
    if (undo && data.length === 0) {
      at = undo.at;
      for (const [key, version] of undo.seen) seen.set(key, version);
      done = true;
    } else if (window !== null && !full) {
      // [at, window] is read out. Once the store's clock has left `window` nothing can be saved in it any more.
      if (now !== null && window < now) moveTo(window + 1);
      else if (now === null) {
        // No clock: look past the stretch, and come back to it if nothing was saved later.
        probe = { at: at!, seen: [...seen] };
        moveTo(window + 1);
      } else done = true;
      window = null;
      pause = held && !waited;
      done &&= !pause;
    } else if (window === null && !full) {
      // Every row from `at` on has been read.
      if (seen.size > 0) moveTo(now !== null && newest < now ? newest + 1 : newest);
      // Rows from a second the store's clock has not reached yet come with a later sync.
      pause = held && !waited;
      done = !pause;
    } else if (window === null && last) {
      const safe = Math.min(last.second - Math.max(0, high! - last.offset), now ?? Number.POSITIVE_INFINITY);
      if (at === null || safe > at) moveTo(safe);
      else if (items.length === 0) {
        // A whole page of rows already seen (or held back): read past them by id.
        if (seen.size > 0) window = newest;
        else if (held && !waited) pause = true;
        else done = true;
      }
    }
    yield { items, marks, end: snapshot(), done } satisfies Page;
    if (done) return;
  }
}

export async function* customerPages(
  get: Fetch,
  cp: CustomerCheckpoint,
  perPage: number,
  options?: RequestOptions,
) {
  let { after_id: afterId, offset, started } = cp;
  // Where the cursor's row stands when the checkpoint's offset is off (customers deleted or created before
  // it, a checkpoint from elsewhere): `below` is a row index known to hold an id up to `afterId`, `above` one
  // known past it (or past the end); the scan doubles its step until it has both, then halves between them.
  let step = 0;
  let below = -1;
  let above = Number.POSITIVE_INFINITY;
  const after = cp.modified_after === null ? null : toSeconds(cp.modified_after);
  const skip = new Set(cp.skip.map(([id, second]) => `${id} ${second}`));
  const seen = [...cp.seen];
  const mark =
    (a = afterId, n = offset, s = started, k = seen.length) =>
    (): CustomerCheckpoint => ({ ...cp, after_id: a, offset: n, started: s, seen: seen.slice(0, k) });
  for (;;) {
    // One record of overlap, on top of the page: the first row should be `afterId` itself (or older).
    const first = Math.max(0, offset - 1);
    const size = first > 0 ? Math.min(100, perPage + 1) : perPage;
    const { data, response, requestId } = await get(
      { orderby: 'id', order: 'asc', per_page: size, offset: first },
      options,
    );
    if (started === null) {
      const date = Date.parse(response.headers.get('date') ?? '');
      // Without the header (a browser hides it cross-origin) the next scan reads every customer.
      started = Number.isFinite(date) ? fromSeconds(Math.floor(date / 1000)) : null;
    }
    const behind = first > 0 && (data.length === 0 || data[0]!.id > afterId);
    const short = data.length === size && data.at(-1)!.id <= afterId;
    if (behind || short) {
      step = step === 0 ? perPage : step * 2;
      if (behind) above = Math.min(above, first);
      else below = Math.max(below, first + data.length - 1);
      if (below >= above) above = Number.POSITIVE_INFINITY;
      const total = Number(response.headers.get('x-wp-total'));
      const next =
        below >= 0 && above !== Number.POSITIVE_INFINITY
          ? Math.floor((below + above) / 2)
          : behind
            ? Math.max(0, first - step)
            : Math.min(below + step, Number.isFinite(total) && total > 0 ? total - 1 : below + step);
      if (short && next <= first)
        throw stuck(
          'a full page brought no customer past the cursor (the server ignores offset)',
          response,
          requestId,
        );
      offset = next + 1;
      continue;
    }
    step = 0;
    below = -1;
    above = Number.POSITIVE_INFINITY;
    const items: Row[] = [];
    const marks: Page['marks'] = [];
    let last = 0;
    data.forEach((row, i) => {
      if (row.id <= last)
        throw stuck('customers are not in id order (the server ignores orderby=id)', response, requestId);
      last = row.id;
      if (row.id <= afterId) return;
      afterId = row.id;
      offset = first + i + 1;
      // A customer never updated has no date_modified; one whose date does not parse is yielded.
      const date = row.date_modified_gmt ?? row.date_created_gmt;
      const seconds = typeof date === 'string' ? instantSeconds(date) : Number.NaN;
      const second = Number.isNaN(seconds) ? '' : fromSeconds(seconds);
      if ((after !== null && seconds <= after) || skip.has(`${row.id} ${second}`)) return;
      // Changed since this scan began: the next scan would yield it again, unless told it has it.
      // Past the cap the next scan yields it once more rather than the checkpoint growing past what it reads.
      if (started !== null && second >= started && seen.length < checkpointLimits.versions)
        seen.push([row.id, second]);
      items.push(row);
      marks.push(mark());
    });
    const done = data.length < size;
    // A finished scan hands over to the next one: customers modified since it began.
    const end: CustomerCheckpoint = done
      ? {
          v: 1,
          resource: 'customers',
          modified_after: started === null ? null : fromSeconds(toSeconds(started) - 1),
          after_id: 0,
          offset: 0,
          started: null,
          skip: started === null ? [] : seen,
          seen: [],
        }
      : mark()();
    yield { items, marks, end, done } satisfies Page;
    if (done) return;
  }
}

function stuck(reason: string, response: Response, requestId: string | undefined): PaginationError {
  return new PaginationError({ cursor: '', reason, requestId, status: response.status });
}
