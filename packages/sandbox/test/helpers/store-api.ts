/**
 * A tiny Store API client for the tests: plain fetch over a real socket, keeping the `Cart-Token` it is given
 * (as a headless storefront does) unless told not to.
 */

export interface StoreApiAnswer {
  status: number;
  body: any;
  headers: Headers;
}

export class StoreApiSession {
  token: string | null = null;

  constructor(
    readonly base: string,
    private readonly keepToken = true,
  ) {}

  async call(
    method: string,
    route: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<StoreApiAnswer> {
    const h: Record<string, string> = { ...headers };
    if (body !== undefined) h['Content-Type'] = 'application/json';
    if (this.token && this.keepToken && !('Cart-Token' in h)) h['Cart-Token'] = this.token;
    const res = await fetch(`${this.base}/wp-json/wc/store/v1/${route}`, {
      method,
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const token = res.headers.get('cart-token');
    if (token && this.keepToken) this.token = token;
    return { status: res.status, body: text === '' ? null : JSON.parse(text), headers: res.headers };
  }
}
