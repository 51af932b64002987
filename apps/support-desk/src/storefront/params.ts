/**
 * The store the page shops at, from its `?store=` query parameter: an http(s) URL without credentials,
 * reduced to its origin and path (the site's home URL; the client adds `/wp-json/wc/store/v1`). Anything
 * else is null, and the page says what it needs instead of calling an address it cannot use.
 */
export function storeUrlFrom(search: string): string | null {
  const raw = new URLSearchParams(search).get('store');
  if (raw === null || raw.length > 2048) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '') return null;
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Where the page keeps its cart token: one per store, so a page pointed at another store starts a new cart. */
export function cartTokenKey(store: string): string {
  return `support-desk-storefront:cart-token:${store}`;
}
