import { PaginationError, type RequestOptions } from '@x/core';
import {
  type CustomerCheckpoint,
  fromSeconds,
  instantSeconds,
  type ModifiedCheckpoint,
  type SyncCheckpoint,
  toSeconds,
} from './checkpoint.js';

export type Resource = 'orders' | 'products' | 'customers';
export type Row = { id: number; date_modified_gmt?: string | null; date_created_gmt?: string | null };
export type Page = { items: Row[]; marks: Array<() => SyncCheckpoint>; end: SyncCheckpoint; done: boolean };
/** One GET of the route (through the client's request loop: auth, retries, the rate limiter). */
export type Fetch = (
  query: Record<string, unknown>,
  options: RequestOptions | undefined,
) => Promise<{ data: Row[]; response: Response; requestId: string | undefined }>;

export async function* modifiedPages(
  get: Fetch,
  resource: Resource,
  cp: ModifiedCheckpoint,
  perPage: number,
  options?: RequestOptions,
) {
  let at = cp.modified_gmt === null ? null : toSeconds(cp.modified_gmt);
  let ids = [...cp.ids];
  const mark =
    (n = ids.length, second = at, list = ids) =>
    (): ModifiedCheckpoint => ({
      v: 1,
      resource: resource as 'orders',
      modified_gmt: second === null ? null : fromSeconds(second),
      ids: list.slice(0, n),
    });
  // Reading only the second `at`, past the ids seen there: after a whole page of them. Not `exclude` in
  // general: it would also hide a seen record that has since changed, and so moved to a later second.
  let tie = false;
  for (;;) {
    const { data, response, requestId } = await get(
      {
        orderby: 'modified',
        order: 'asc',
        per_page: perPage,
        dates_are_gmt: true,
        modified_after: at === null ? undefined : fromSeconds(at - 1),
        modified_before: tie ? fromSeconds(at! + 1) : undefined,
        exclude: tie ? [...ids] : undefined,
      },
      options,
    );
    const items: Row[] = [];
    const marks: Page['marks'] = [];
    for (const row of data) {
      const seconds =
        typeof row.date_modified_gmt === 'string' ? instantSeconds(row.date_modified_gmt) : Number.NaN;
      const fault = !Number.isFinite(seconds)
        ? `${resource} ${row.id} has no date_modified_gmt`
        : at !== null && (seconds < at || (tie && (seconds !== at || ids.includes(row.id))))
          ? `${resource} came back out of date_modified order or outside the filters asked for (the server ignores orderby, modified_after, modified_before or exclude)`
          : undefined;
      if (fault) throw stuck(fault, response, requestId);
      // Seen at this second already; a record that changed since has a later second, and comes again.
      if (seconds === at && ids.includes(row.id)) continue;
      if (seconds !== at) ids = [];
      at = seconds;
      ids.push(row.id);
      items.push(row);
      marks.push(mark());
    }
    const full = data.length === perPage;
    let done = !full;
    if (tie && !full) {
      // The second is exhausted. Once the store's clock has left it, nothing can be modified at it any
      // more, so the keyset moves past it; at the store's current second the sync has caught up.
      const now = Date.parse(response.headers.get('date') ?? '') / 1000;
      done = at! >= Math.floor(now);
      if (!done) {
        at = at! + 1;
        ids = [];
        tie = false;
      }
    } else if (full && items.length === 0) {
      tie = true;
      done = false;
    }
    yield { items, marks, end: mark()(), done } satisfies Page;
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
  let back = 0;
  const after = cp.modified_after === null ? null : toSeconds(cp.modified_after);
  const skip = new Set(cp.skip.map(([id, second]) => `${id} ${second}`));
  const seen = [...cp.seen];
  const mark =
    (a = afterId, n = offset, s = started, k = seen.length) =>
    (): CustomerCheckpoint => ({ ...cp, after_id: a, offset: n, started: s, seen: seen.slice(0, k) });
  for (;;) {
    // One record of overlap: the first row should be `afterId` itself (or older).
    const first = Math.max(0, offset - 1);
    const { data, response, requestId } = await get(
      { orderby: 'id', order: 'asc', per_page: perPage, offset: first },
      options,
    );
    if (started === null) {
      const date = Date.parse(response.headers.get('date') ?? '');
      // Without the header (a browser hides it cross-origin) the next scan reads every customer.
      started = Number.isFinite(date) ? fromSeconds(Math.floor(date / 1000)) : null;
    }
    if (first > 0 && (data.length === 0 || data[0]!.id > afterId)) {
      // Customers before the cursor were deleted, so the rows moved down: step back and look again, twice
      // as far each time (a checkpoint from elsewhere may be far off).
      back = back === 0 ? perPage : back * 2;
      offset = Math.max(0, offset - back);
      continue;
    }
    back = 0;
    const items: Row[] = [];
    const marks: Page['marks'] = [];
    const from = afterId;
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
      if (started !== null && second >= started) seen.push([row.id, second]);
      items.push(row);
      marks.push(mark());
    });
    const done = data.length < perPage;
    if (!done && last <= from)
      throw stuck(
        'a full page brought no customer past the cursor (the server ignores offset)',
        response,
        requestId,
      );
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
