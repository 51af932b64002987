import type { WithResponse } from './api-promise.js';
import { PaginationError } from './errors.js';
import { redactUrl } from './internal/redact.js';
import type { RequestSpec } from './options.js';

export interface PageInfo {
  total?: number | undefined;
  totalPages?: number | undefined;
  pageNumber?: number | undefined;
  /** The request for the next page, or null on the last page. */
  next: RequestSpec | null;
}

/** How a service pages: where the items are in a body, and how to ask for the next page. */
export interface PageStrategy<T> {
  items(body: unknown): T[];
  describe(spec: RequestSpec, response: Response, body: unknown, items: readonly T[]): PageInfo;
  /** Present when any page can be requested directly by number, which allows fetching several at once. */
  pageSpec?(first: RequestSpec, pageNumber: number): RequestSpec;
}

export type FetchPage = (spec: RequestSpec) => Promise<WithResponse<unknown>>;

/**
 * What the pages of one listing share, so a server that links back to a page already fetched (a repeated
 * `prev_url`, a cursor that does not move, a `page` parameter it ignores) ends the walk with an error
 * instead of looping forever. `redact` scrubs the client's secrets from the cursor shown in the error.
 */
export interface PageTrail {
  visited: Set<string>;
  redact: (text: string) => string;
}

function specKey(spec: RequestSpec): string {
  const query = Object.entries(spec.query ?? {})
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${spec.method} ${spec.path} ${JSON.stringify(query)}`;
}

function showCursor(spec: RequestSpec, redact: (text: string) => string): string {
  const query = Object.entries(spec.query ?? {})
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .join('&');
  const joined = query ? `${spec.path}${spec.path.includes('?') ? '&' : '?'}${query}` : spec.path;
  const clipped = joined.length > 300 ? `${joined.slice(0, 300)}…` : joined;
  return redact(redactUrl(clipped));
}

/**
 * Same items as the page before. Compared by walking both with an explicit stack, not `JSON.stringify`:
 * a server can nest 10,000 levels, where stringify throws and the walk would never stop.
 */
function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length === 0 || a.length !== b.length) return false;
  const stack: Array<[unknown, unknown]> = [[a, b]];
  for (let budget = 1_000_000; stack.length > 0; budget--) {
    if (budget === 0) return false;
    const [x, y] = stack.pop()!;
    if (Object.is(x, y)) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    const keys = Object.keys(x);
    if (keys.length !== Object.keys(y).length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(y, key)) return false;
      stack.push([(x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key]]);
    }
  }
  return true;
}

export class Page<T> {
  readonly data: T[];
  readonly total: number | undefined;
  readonly totalPages: number | undefined;
  readonly pageNumber: number | undefined;
  readonly response: Response;
  readonly requestId: string | undefined;
  readonly #next: RequestSpec | null;
  readonly #fetchPage: FetchPage;
  readonly #strategy: PageStrategy<T>;
  readonly #trail: PageTrail;
  #nextPage: Page<T> | undefined;

  constructor(
    result: WithResponse<unknown>,
    spec: RequestSpec,
    strategy: PageStrategy<T>,
    fetchPage: FetchPage,
    trail: PageTrail = { visited: new Set(), redact: (text) => text },
  ) {
    this.data = strategy.items(result.data);
    const info = strategy.describe(spec, result.response, result.data, this.data);
    this.total = info.total;
    this.totalPages = info.totalPages;
    this.pageNumber = info.pageNumber;
    this.response = result.response;
    this.requestId = result.requestId;
    this.#next = info.next;
    this.#fetchPage = fetchPage;
    this.#strategy = strategy;
    this.#trail = trail;
    trail.visited.add(specKey(spec));
  }

  hasNextPage(): boolean {
    return this.#next !== null;
  }

  /**
   * Fetches the page after this one (once: asking again gives the same page). Throws `PaginationError`
   * when the server links back to a page already fetched, or serves the same items again.
   */
  async getNextPage(): Promise<Page<T>> {
    if (this.#nextPage) return this.#nextPage;
    if (!this.#next) throw new Error('No next page: check hasNextPage() first.');
    const next = this.#next;
    const { redact, visited } = this.#trail;
    if (visited.has(specKey(next))) {
      throw new PaginationError({
        cursor: showCursor(next, redact),
        requestId: this.requestId,
        status: this.response.status,
        reason: `the server links back to a page already fetched (${showCursor(next, redact)}), so following it would loop forever`,
      });
    }
    const page = new Page(await this.#fetchPage(next), next, this.#strategy, this.#fetchPage, this.#trail);
    if (sameItems(page.data, this.data)) {
      throw new PaginationError({
        cursor: showCursor(next, redact),
        requestId: page.requestId,
        status: page.response.status,
        reason: `${showCursor(next, redact)} returned the same ${page.data.length} items as the page before (the server ignores the page or cursor parameter), so following it would loop forever`,
      });
    }
    this.#nextPage = page;
    return page;
  }
}

/**
 * `await client.things.list()` gives the first page (with totals); `for await (const thing of
 * client.things.list())` walks every item of every page; `.pages()` walks pages.
 */
export class PagePromise<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  readonly #first: Promise<Page<T>>;
  #spec: RequestSpec | undefined;
  readonly #strategy: PageStrategy<T>;
  readonly #fetchPage: FetchPage;
  readonly #concurrency: number;
  readonly #redact: (text: string) => string;

  constructor(
    fetchPage: FetchPage,
    spec: Promise<RequestSpec>,
    strategy: PageStrategy<T>,
    concurrency: number,
    redact: (text: string) => string = (text) => text,
  ) {
    this.#fetchPage = fetchPage;
    this.#strategy = strategy;
    this.#concurrency = Math.max(1, Math.floor(concurrency));
    this.#redact = redact;
    this.#first = spec.then(async (resolved) => {
      this.#spec = resolved;
      return new Page(await fetchPage(resolved), resolved, strategy, fetchPage, {
        visited: new Set(),
        redact,
      });
    });
  }

  // biome-ignore lint/suspicious/noThenProperty: this object is a promise of the first page by design.
  then<A = Page<T>, B = never>(
    onFulfilled?: ((value: Page<T>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#first.then(onFulfilled, onRejected);
  }

  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page<T> | B> {
    return this.#first.catch(onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<Page<T>> {
    return this.#first.finally(onFinally);
  }

  async *pages(): AsyncGenerator<Page<T>> {
    const first = await this.#first;
    yield first;
    const { pageSpec } = this.#strategy;
    if (
      this.#concurrency > 1 &&
      pageSpec &&
      first.totalPages !== undefined &&
      first.pageNumber !== undefined
    ) {
      yield* this.#concurrentPages(first.pageNumber + 1, first.totalPages, pageSpec);
      return;
    }
    let page = first;
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      yield page;
    }
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const page of this.pages()) yield* page.data;
  }

  async toArray(): Promise<T[]> {
    const all: T[] = [];
    for await (const item of this) all.push(item);
    return all;
  }

  /** Keeps up to `concurrency` page requests in flight (the rate limiter still paces them) and yields in order. */
  async *#concurrentPages(
    from: number,
    to: number,
    pageSpec: NonNullable<PageStrategy<T>['pageSpec']>,
  ): AsyncGenerator<Page<T>> {
    const inFlight: Array<Promise<Page<T>>> = [];
    let nextNumber = from;
    const launch = () => {
      const spec = pageSpec(this.#spec!, nextNumber++);
      const promise = this.#fetchPage(spec).then(
        (result) => new Page(result, spec, this.#strategy, this.#fetchPage),
      );
      // A consumer that stops early must not leave rejections unhandled.
      promise.catch(() => {});
      inFlight.push(promise);
    };
    while (nextNumber <= to && inFlight.length < this.#concurrency) launch();
    let previous: Page<T> | undefined;
    while (inFlight.length > 0) {
      const page = await inFlight.shift()!;
      // The same guards as one page at a time: an empty page is the end whatever the total said (a
      // total of 10^20 pages must not mean 10^20 requests), and the same items again mean the server
      // ignores the page parameter.
      if (previous && sameItems(page.data, previous.data)) {
        const cursor = showCursor(pageSpec(this.#spec!, page.pageNumber ?? nextNumber), this.#redact);
        throw new PaginationError({
          cursor,
          requestId: page.requestId,
          status: page.response.status,
          reason: `${cursor} returned the same ${page.data.length} items as the page before (the server ignores the page parameter), so following it would loop forever`,
        });
      }
      if (page.data.length === 0) {
        yield page;
        return;
      }
      previous = page;
      if (nextNumber <= to) launch();
      yield page;
    }
  }
}

function headerInt(headers: Headers, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw === null || !/^\d+$/.test(raw.trim())) return undefined;
  const value = Number(raw);
  // A count past 2^53 is no count a server keeps; taking it would only promise pages that never end.
  return Number.isSafeInteger(value) ? value : undefined;
}

/** Pages addressed by number, totals in headers (WordPress/WooCommerce `X-WP-Total`, `X-WP-TotalPages`). */
export function pageNumberStrategy<T>(options: {
  pageParam?: string;
  totalHeader?: string;
  totalPagesHeader?: string;
  items?: (body: unknown) => T[];
}): PageStrategy<T> {
  const pageParam = options.pageParam ?? 'page';
  const pageOf = (spec: RequestSpec) => Number(spec.query?.[pageParam] ?? 1) || 1;
  const withPage = (spec: RequestSpec, page: number): RequestSpec => ({
    ...spec,
    query: { ...spec.query, [pageParam]: page },
  });
  return {
    items: options.items ?? ((body) => (Array.isArray(body) ? (body as T[]) : [])),
    describe(spec, response, _body, items) {
      const pageNumber = pageOf(spec);
      const total = options.totalHeader ? headerInt(response.headers, options.totalHeader) : undefined;
      const totalPages = options.totalPagesHeader
        ? headerInt(response.headers, options.totalPagesHeader)
        : undefined;
      // An empty page ends the listing even before the last page the headers announced: records deleted
      // while paging shift the rest forward, and a server announcing more pages than it has must not
      // make the walk go on forever.
      const more = items.length > 0 && (totalPages === undefined || pageNumber < totalPages);
      return { total, totalPages, pageNumber, next: more ? withPage(spec, pageNumber + 1) : null };
    },
    pageSpec: withPage,
  };
}

/** Pages linked by a next URL or cursor in the body (AssemblyAI `page_details.next_url`). */
export function cursorStrategy<T>(options: {
  items: (body: unknown) => T[];
  nextUrl: (body: unknown, response: Response) => string | null | undefined;
  total?: (body: unknown) => number | undefined;
}): PageStrategy<T> {
  return {
    items: options.items,
    describe(spec, response, body) {
      const nextUrl = options.nextUrl(body, response);
      return {
        total: options.total?.(body),
        next: nextUrl ? { ...spec, path: nextUrl, query: undefined } : null,
      };
    },
  };
}
