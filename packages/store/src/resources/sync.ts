import { parseInput, type RequestOptions, ValidationError } from '@x/core';
import * as z from 'zod/mini';
import {
  type CustomerCheckpoint,
  checkpointSchema,
  fromSeconds,
  instantSeconds,
  MemoryCheckpointStore,
  type ModifiedCheckpoint,
  optionsSchema,
  type SyncCheckpoint,
  type SyncOptions,
  type SyncPage,
} from '../sync/checkpoint.js';
import { customerPages, type Fetch, modifiedPages, type Page } from '../sync/pages.js';
import type { StoreContext } from './collection.js';

/**
 * Resumable sync. Page numbers are not a stable order while the store changes: an order modified during
 * an export moves to the end of `orderby=modified` and every later page shifts down by one, so page-number
 * paging skips a record. So orders and products are read by keyset on `date_modified_gmt`:
 *
 * - WooCommerce's `modified_after` is a strict `post_modified > value` at one-second resolution
 *   (woocommerce/includes/rest-api/Controllers/Version3/class-wc-rest-crud-controller.php
 *   prepare_objects_query(): a WP date_query `after`, not inclusive;
 *   `dates_are_gmt` picks the `post_modified_gmt` column, free of DST's repeated hour).
 * - It sorts on the local `post_modified`, not on the GMT column it filters on: orders as `modified ID`
 *   (prepare_objects_query(), "for consistency with pagination"), products through
 *   WC_Query::get_catalog_ordering_args() with NO id tiebreak. So ties within a second come in any order, and
 *   when the store's clock falls back (DST, a new timezone) local order is not GMT order. The checkpoint keeps
 *   a GMT second before which every version has been yielded, and the versions yielded from it on; the next
 *   request asks from that second (`modified_after` = second - 1) and drops rows already yielded. The cursor
 *   never moves past the GMT a record the page did not reach could still have (sync/pages.ts says how). Only
 *   when a whole page is such rows does it ask for the stretch read so far alone (`modified_before`) with the
 *   seen ids in `exclude` (`post__not_in`); `exclude` in general would hide a changed record too. Once that
 *   stretch is read out and the store's clock (`Date`) has left it, the keyset moves past it. Rows at the
 *   store's current second are held back: a second edit within that second would keep the same date.

 * Customers have no `modified_after` and order only by id, name or registered date
 * (Controllers/Version1/class-wc-rest-customers-v1-controller.php get_collection_params(), which v2 and v3
 * inherit), and a modified customer does not move in any of those orders. So their sync is one scan in id order (ids only grow: new customers land at the end),
 * paged by `offset` with a one-record overlap that detects deletions before the cursor (and steps back), with
 * `modified_after` compared here. A finished scan remembers when it started (the server's `Date`), and the
 * next sync from its checkpoint is a new scan for customers modified since, skipping the versions this
 * one already yielded. Deletions are not reported by any of them: the REST API keeps no tombstones.
 */

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
        ? (cp: SyncCheckpoint) =>
            customerPages(this.#fetch, cp as CustomerCheckpoint, perPage, requestOptions)
        : (cp: SyncCheckpoint) =>
            modifiedPages(this.#fetch, this.#resource, cp as ModifiedCheckpoint, perPage, requestOptions);
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

  readonly #fetch: Fetch = (query, options) =>
    this.#context.client
      .request({
        method: 'GET',
        path: this.#path,
        query: query as never,
        schema: this.#items,
        what: `${this.#resource}.sync`,
        options,
      })
      .withResponse() as ReturnType<Fetch>;
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

  /** @internal Made by `sync()`. */
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
      throw new ValidationError('sync run', [
        {
          path: '',
          message: 'a run is iterated once: start another with sync({ checkpoint: run.checkpoint })',
        },
      ]);
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
