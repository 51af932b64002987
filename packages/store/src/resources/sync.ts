import { PaginationError, parseInput, type RequestOptions, ValidationError } from '@x/core';
import * as z from 'zod/mini';
import type { StoreContext } from './collection.js';

/**
 * Resumable sync. Page numbers are not a stable order while the store changes: an order modified during
 * an export moves to the end of `orderby=modified` and every later page shifts down by one, so page-number
 * paging skips a record. So orders and products are read by keyset on `date_modified_gmt`:
 *
 * - WooCommerce's `modified_after` is a strict `post_modified > value` at one-second resolution
 *   (class-wc-rest-crud-controller.php prepare_objects_query(): a WP date_query `after`, not inclusive;
 *   `dates_are_gmt` picks the `post_modified_gmt` column, free of DST's repeated hour).
 * - It appends `ID` to `orderby=modified` "for consistency with pagination" (same file), but a keyset on
 *   the second alone cannot say where it stopped inside a second, so the checkpoint keeps the ids already
 *   seen at its second and the next request asks from that second (`modified_after` = second - 1) with those
 *   ids in `exclude` (`post__not_in`). This does not rely on the id order within a second either.
 *
 * Customers have no `modified_after` and order only by id, name or registered date
 * (class-wc-rest-customers-controller.php get_collection_params()), and a modified customer does not move in
 * any of those orders. So their sync is one scan in id order (ids only grow: new customers land at the end),
 * paged by `offset` with a one-record overlap that detects deletions before the cursor (and steps back), with
 * `modified_after` compared here. A finished scan remembers when it started (the server's `Date`), and the
 * next sync from its checkpoint is a new scan for customers modified since.
 */

/** Orders and products: keyset on `date_modified_gmt`. */
export interface ModifiedCheckpoint {
  v: 1;
  resource: 'orders' | 'products';
  /** A GMT second, `YYYY-MM-DDTHH:MM:SS`: every record modified before it has been seen; null: from the start. */
  modified_gmt: string | null;
  /** The ids seen that were modified at exactly `modified_gmt`. */
  ids: number[];
}

/** Customers: one scan in id order, with `modified_after` compared in the client. */
export interface CustomerCheckpoint {
  v: 1;
  resource: 'customers';
  /** GMT second; the scan yields customers modified after it (strictly); null: every customer. */
  modified_after: string | null;
  /** The last customer id the scan has gone past (0: not started). */
  after_id: number;
  /** How many customers had ids up to `after_id` when last read: where the next page starts. */
  offset: number;
  /** The server's clock (`Date` header) when the scan began: the next scan's `modified_after`. */
  started: string | null;
  /** `[id, date_modified_gmt]` the previous scan yielded after this one's `modified_after`: not yielded again. */
  skip: Array<[number, string]>;
  /** `[id, date_modified_gmt]` this scan yielded that changed after it began: the next scan's `skip`. */
  seen: Array<[number, string]>;
}

/** Plain JSON: persist it anywhere and pass it back as `checkpoint` to resume. */
export type SyncCheckpoint = ModifiedCheckpoint | CustomerCheckpoint;

/** Where a sync keeps its checkpoint between runs: written after each page the caller has finished. */
export interface CheckpointStore {
  get(key: string): SyncCheckpoint | undefined | Promise<SyncCheckpoint | undefined>;
  set(key: string, checkpoint: SyncCheckpoint): void | Promise<void>;
}

/** The default: checkpoints live as long as the client (copies, so a caller cannot change one in place). */
export class MemoryCheckpointStore implements CheckpointStore {
  readonly #saved = new Map<string, string>();
  get(key: string): SyncCheckpoint | undefined {
    const saved = this.#saved.get(key);
    return saved === undefined ? undefined : JSON.parse(saved);
  }
  set(key: string, checkpoint: SyncCheckpoint): void {
    this.#saved.set(key, JSON.stringify(checkpoint));
  }
}

export interface SyncOptions {
  /** Only records modified after this instant (strictly, to the second, as WooCommerce compares). Not with `checkpoint`. */
  modified_after?: string | Date;
  /** Resume here (from `run.checkpoint` or a page's `checkpoint`). Default: the store's checkpoint for `key`. */
  checkpoint?: SyncCheckpoint;
  /** Default: in memory, one per client and resource. */
  checkpointStore?: CheckpointStore;
  /** The checkpoint's name in the store. Default: the resource (`orders`). */
  key?: string;
  /** Records per request, 1 to 100. Default 100. */
  per_page?: number;
}

export interface SyncPage<T> {
  items: T[];
  /** Where the sync stands after this page. */
  checkpoint: SyncCheckpoint;
}

type Row = { id: number; date_modified_gmt?: string | null; date_created_gmt?: string | null };
type Page = { items: Row[]; marks: Array<() => SyncCheckpoint>; end: SyncCheckpoint; done: boolean };

const SECOND = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const INSTANT = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})?$/;
const toSeconds = (gmt: string): number => Date.parse(`${gmt}Z`) / 1000;
const fromSeconds = (s: number): string => new Date(s * 1000).toISOString().slice(0, 19);
const gmtSecond = z
  .string()
  .check(
    z.refine(
      (s) => SECOND.test(s) && Number.isFinite(toSeconds(s)),
      'expected a GMT second YYYY-MM-DDTHH:MM:SS',
    ),
  );
const count = z.number().check(z.int(), z.gte(0), z.lte(Number.MAX_SAFE_INTEGER));
const id = z.number().check(z.int(), z.gte(1), z.lte(Number.MAX_SAFE_INTEGER));
const versions = z.array(z.tuple([id, gmtSecond])).check(z.maxLength(100_000));

/** An RFC 3339 date-time (no offset: GMT), or a Date, to whole seconds; NaN when it is neither. */
function instantSeconds(value: string | Date): number {
  if (value instanceof Date) return Math.floor(value.getTime() / 1000);
  const m = INSTANT.exec(value);
  if (!m) return Number.NaN;
  const zone =
    !m[4] || m[4] === 'z' ? 'Z' : m[4].length === 5 ? `${m[4].slice(0, 3)}:${m[4].slice(3)}` : m[4];
  return Math.floor(Date.parse(`${m[1]}T${m[2]}${zone}`) / 1000);
}

function checkpointSchema(resource: string) {
  return resource === 'customers'
    ? z.strictObject({
        v: z.literal(1),
        resource: z.literal('customers'),
        modified_after: z.nullable(gmtSecond),
        after_id: count,
        offset: count,
        started: z.nullable(gmtSecond),
        skip: versions,
        seen: versions,
      })
    : z.strictObject({
        v: z.literal(1),
        resource: z.literal(resource as 'orders'),
        modified_gmt: z.nullable(gmtSecond),
        // Only the ids of one second.
        ids: z.array(id).check(z.maxLength(100_000)),
      });
}

function optionsSchema(checkpoint: z.ZodMiniType) {
  return z.strictObject({
    modified_after: z.optional(
      z.union([z.string(), z.date()]).check(
        z.refine((v) => {
          const s = instantSeconds(v);
          return Number.isFinite(s) && s > 0 && s < 253402300800;
        }, 'expected an RFC 3339 date-time (e.g. 2026-11-27T05:00:00Z) or a valid Date after 1970'),
      ),
    ),
    checkpoint: z.optional(checkpoint),
    checkpointStore: z.optional(
      z.custom<CheckpointStore>(
        (v) =>
          typeof (v as CheckpointStore)?.get === 'function' &&
          typeof (v as CheckpointStore)?.set === 'function',
        'expected an object with get(key) and set(key, checkpoint)',
      ),
    ),
    key: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
    per_page: z.optional(z.number().check(z.int(), z.gte(1), z.lte(100))),
  });
}

/** The sync of one route: `client.orders.sync()` and its siblings are one-liners over this. */
export class Sync<T> {
  readonly #context: StoreContext;
  readonly #path: string;
  readonly #resource: 'orders' | 'products' | 'customers';
  readonly #items: z.ZodMiniType;
  readonly #checkpoint: z.ZodMiniType;
  readonly #options: z.ZodMiniType;
  readonly #store = new MemoryCheckpointStore();

  constructor(
    context: StoreContext,
    path: string,
    item: z.ZodMiniType,
    resource: 'orders' | 'products' | 'customers',
  ) {
    this.#context = context;
    this.#path = path;
    this.#resource = resource;
    this.#items = z.array(item);
    this.#checkpoint = checkpointSchema(resource);
    this.#options = optionsSchema(this.#checkpoint);
  }

  /** Checks every option before anything is sent: a bad one throws `ValidationError` here, naming it. */
  run(options?: SyncOptions, requestOptions?: RequestOptions): SyncRun<T> {
    const what = `${this.#resource}.sync options`;
    const o = parseInput(this.#options, options ?? {}, what) as SyncOptions;
    if (o.checkpoint && o.modified_after !== undefined) {
      throw new ValidationError(what, [
        {
          path: 'modified_after',
          message: 'give modified_after or checkpoint, not both (the checkpoint holds its own position)',
        },
      ]);
    }
    const store = o.checkpointStore ?? this.#store;
    const key = o.key ?? this.#resource;
    const start = async (): Promise<SyncCheckpoint> => {
      if (o.checkpoint) return o.checkpoint;
      if (o.modified_after !== undefined) return this.#from(instantSeconds(o.modified_after));
      const saved = await store.get(key);
      if (saved === undefined) return this.#from(null);
      return parseInput(
        this.#checkpoint,
        saved,
        `${this.#resource}.sync checkpoint from checkpointStore "${key}"`,
      ) as SyncCheckpoint;
    };
    const perPage = o.per_page ?? 100;
    const pages =
      this.#resource === 'customers'
        ? (cp: SyncCheckpoint) => this.#customerPages(cp as CustomerCheckpoint, perPage, requestOptions)
        : (cp: SyncCheckpoint) => this.#modifiedPages(cp as ModifiedCheckpoint, perPage, requestOptions);
    return new SyncRun<T>(start, pages, (cp) => store.set(key, cp));
  }

  #from(seconds: number | null): SyncCheckpoint {
    if (this.#resource === 'customers') {
      const after = seconds === null ? null : fromSeconds(seconds);
      return {
        v: 1,
        resource: 'customers',
        modified_after: after,
        after_id: 0,
        offset: 0,
        started: null,
        skip: [],
        seen: [],
      };
    }
    // Strictly after a second = from the next one.
    const from = seconds === null ? null : fromSeconds(seconds + 1);
    return { v: 1, resource: this.#resource, modified_gmt: from, ids: [] };
  }

  async #get(query: Record<string, unknown>, options: RequestOptions | undefined) {
    return this.#context.client
      .request({
        method: 'GET',
        path: this.#path,
        query: query as never,
        schema: this.#items,
        what: `${this.#resource}.sync`,
        options,
      })
      .withResponse() as Promise<{ data: Row[]; response: Response; requestId: string | undefined }>;
  }

  async *#modifiedPages(cp: ModifiedCheckpoint, perPage: number, options?: RequestOptions) {
    let at = cp.modified_gmt === null ? null : toSeconds(cp.modified_gmt);
    let ids = [...cp.ids];
    const mark =
      (n = ids.length, second = at, list = ids) =>
      (): ModifiedCheckpoint => ({
        v: 1,
        resource: this.#resource as 'orders',
        modified_gmt: second === null ? null : fromSeconds(second),
        ids: list.slice(0, n),
      });
    // Reading only the second `at`, past the ids seen there: after a whole page of them. Not `exclude` in
    // general: it would also hide a seen record that has since changed, and so moved to a later second.
    let tie = false;
    for (;;) {
      const { data, response, requestId } = await this.#get(
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
          ? `${this.#resource} ${row.id} has no date_modified_gmt`
          : at !== null && (seconds < at || (tie && (seconds !== at || ids.includes(row.id))))
            ? `${this.#resource} came back out of date_modified order or outside the filters asked for (the server ignores orderby, modified_after, modified_before or exclude)`
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

  async *#customerPages(cp: CustomerCheckpoint, perPage: number, options?: RequestOptions) {
    let { after_id: afterId, offset, started } = cp;
    const after = cp.modified_after === null ? null : toSeconds(cp.modified_after);
    const skip = new Set(cp.skip.map(([id, second]) => `${id} ${second}`));
    const seen = [...cp.seen];
    const mark =
      (a = afterId, n = offset, s = started, k = seen.length) =>
      (): CustomerCheckpoint => ({ ...cp, after_id: a, offset: n, started: s, seen: seen.slice(0, k) });
    for (;;) {
      // One record of overlap: the first row should be `afterId` itself (or older).
      const first = Math.max(0, offset - 1);
      const { data, response, requestId } = await this.#get(
        { orderby: 'id', order: 'asc', per_page: perPage, offset: first },
        options,
      );
      if (started === null) {
        const date = Date.parse(response.headers.get('date') ?? '');
        // Without the header (a browser hides it cross-origin) the next scan reads every customer.
        started = Number.isFinite(date) ? fromSeconds(Math.floor(date / 1000)) : null;
      }
      if (first > 0 && (data.length === 0 || data[0]!.id > afterId)) {
        // Customers before the cursor were deleted, so the rows moved down: step back and look again.
        offset = Math.max(0, offset - perPage);
        continue;
      }
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
}

function stuck(reason: string, response: Response, requestId: string | undefined): PaginationError {
  return new PaginationError({ cursor: '', reason, requestId, status: response.status });
}

/**
 * One sync: `for await (const record of run)` yields each record once, `run.checkpoint` says where it stands
 * after the last one yielded; `run.pages()` yields pages with their checkpoints. The checkpoint store is
 * written after each page, once the caller has asked for what follows it (so has finished the page).
 */
export class SyncRun<T> implements AsyncIterable<T> {
  readonly #start: () => Promise<SyncCheckpoint>;
  readonly #pages: (cp: SyncCheckpoint) => AsyncGenerator<Page>;
  readonly #save: (cp: SyncCheckpoint) => void | Promise<void>;
  #current: (() => SyncCheckpoint) | undefined;
  #started = false;

  constructor(
    start: () => Promise<SyncCheckpoint>,
    pages: (cp: SyncCheckpoint) => AsyncGenerator<Page>,
    save: (cp: SyncCheckpoint) => void | Promise<void>,
  ) {
    this.#start = start;
    this.#pages = pages;
    this.#save = save;
  }

  /** Where the sync stands after the last record yielded; undefined before the first page. */
  get checkpoint(): SyncCheckpoint | undefined {
    return this.#current?.();
  }

  async *pages(): AsyncGenerator<SyncPage<T>> {
    for await (const page of this.#walk()) yield { items: page.items as T[], checkpoint: page.end };
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.#walk()) {
      for (let i = 0; i < page.items.length; i++) {
        this.#current = page.marks[i];
        yield page.items[i] as T;
      }
      this.#current = () => page.end;
    }
  }

  async *#walk(): AsyncGenerator<Page> {
    if (this.#started)
      throw new Error('A sync runs once: start another with sync({ checkpoint: run.checkpoint }).');
    this.#started = true;
    const first = await this.#start();
    this.#current = () => first;
    for await (const page of this.#pages(first)) {
      yield page;
      this.#current = () => page.end;
      await this.#save(page.end);
    }
  }
}
