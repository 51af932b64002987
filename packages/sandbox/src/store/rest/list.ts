import { parseWcDate } from '../runtime/values.js';
import type { Ctx, Result } from './router.js';

export interface Dated {
  id: number;
  created: number;
  modified: number;
}

/** after/before/modified_after/modified_before (strict comparisons, like WP's date_query with inclusive=false). */
export function filterDates<T extends Dated>(items: T[], p: Record<string, unknown>): T[] {
  const after = parseWcDate(p.after);
  const before = parseWcDate(p.before);
  const mAfter = parseWcDate(p.modified_after);
  const mBefore = parseWcDate(p.modified_before);
  return items.filter(
    (it) =>
      (after === null || it.created > after) &&
      (before === null || it.created < before) &&
      (mAfter === null || it.modified > mAfter) &&
      (mBefore === null || it.modified < mBefore),
  );
}

export function filterIncludeExclude<T extends { id: number }>(items: T[], p: Record<string, unknown>): T[] {
  const include = Array.isArray(p.include) && p.include.length > 0 ? new Set(p.include as number[]) : null;
  const exclude = Array.isArray(p.exclude) && p.exclude.length > 0 ? new Set(p.exclude as number[]) : null;
  return items.filter((it) => (include === null || include.has(it.id)) && !exclude?.has(it.id));
}

/** Sorts with the ID as tiebreaker in the same direction (WooCommerce appends `ID` to orderby). */
export function sortBy<T extends { id: number }>(
  items: T[],
  key: ((it: T) => string | number) | 'include',
  order: 'asc' | 'desc',
  include?: number[],
): T[] {
  const dir = order === 'asc' ? 1 : -1;
  if (key === 'include') {
    const pos = new Map((include ?? []).map((id, i) => [id, i]));
    return [...items].sort((a, b) => (pos.get(a.id) ?? 0) - (pos.get(b.id) ?? 0) || a.id - b.id);
  }
  return [...items].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    let c = 0;
    if (typeof ka === 'number' && typeof kb === 'number') c = ka - kb;
    else c = String(ka).localeCompare(String(kb), 'en', { sensitivity: 'base' });
    return c !== 0 ? c * dir : (a.id - b.id) * dir;
  });
}

/**
 * The `orderby`/`order` params of a collection: `include` keeps the order of the `include` param, any other value
 * picks a key from `keys`; a missing or unknown `orderby` sorts by the default one.
 */
export function sortByParams<T extends { id: number }>(
  items: T[],
  p: Record<string, unknown>,
  keys: Record<string, (it: T) => string | number>,
  defaults: { orderby: string; order: 'asc' | 'desc' },
): T[] {
  const order = (p.order as 'asc' | 'desc' | undefined) ?? defaults.order;
  const orderby = (p.orderby as string | undefined) ?? defaults.orderby;
  return orderby === 'include'
    ? sortBy(items, 'include', order, p.include as number[] | undefined)
    : sortBy(items, keys[orderby] ?? keys[defaults.orderby]!, order);
}

function phpUrlEncode(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** The collection URL with the request's query echoed and `page` replaced (add_query_arg()). */
function pageLink(ctx: Ctx, page: number): string {
  const pairs = [...ctx.queryPairs];
  const idx = pairs.findIndex(([k]) => k === 'page');
  if (idx >= 0) {
    pairs[idx] = ['page', String(page)];
    for (let i = pairs.length - 1; i > idx; i--) if (pairs[i]![0] === 'page') pairs.splice(i, 1);
  } else pairs.push(['page', String(page)]);
  const qs = pairs.map(
    ([k, v]) => `${phpUrlEncode(k).replace(/%5B/g, '%5B').replace(/%5D/g, '%5D')}=${phpUrlEncode(v)}`,
  );
  return `${ctx.store.restUrl(ctx.wcRoute)}?${qs.join('&')}`;
}

/**
 * Pages a filtered+sorted collection the way class-wc-rest-crud-controller.php get_items() does:
 * X-WP-Total, X-WP-TotalPages, and a Link header with only rel="prev"/rel="next". Out-of-range pages are `200 []`.
 */
export function pagedResult<T>(ctx: Ctx, items: T[], present: (item: T) => unknown): Result {
  const p = ctx.params;
  const perPage = typeof p.per_page === 'number' ? p.per_page : 10;
  const page = typeof p.page === 'number' ? p.page : 1;
  const offset = typeof p.offset === 'number' ? Math.max(0, p.offset) : null;
  const start = offset !== null ? offset : (page - 1) * perPage;
  const slice = items.slice(start, start + perPage);
  const total = items.length;
  const maxPages = Math.ceil(total / perPage);
  const headers: Record<string, string> = {
    'X-WP-Total': String(total),
    'X-WP-TotalPages': String(maxPages),
  };
  const links: string[] = [];
  if (page > 1) {
    const prev = Math.min(page - 1, maxPages);
    links.push(`<${pageLink(ctx, prev)}>; rel="prev"`);
  }
  if (maxPages > page) links.push(`<${pageLink(ctx, page + 1)}>; rel="next"`);
  if (links.length > 0) headers.Link = links.join(', ');
  return { status: 200, body: slice.map(present), headers };
}

export function searchMatch(needle: unknown, ...fields: (string | undefined | null)[]): boolean {
  if (typeof needle !== 'string' || needle === '') return true;
  const n = needle.toLowerCase();
  return fields.some((f) => typeof f === 'string' && f.toLowerCase().includes(n));
}
