import type { Reply } from '../../kit/reply.js';
import type { KeyRecord } from '../data/keys.js';
import type { Store } from '../data/store.js';
import { CAPABILITY, type Capability, forbidden } from '../runtime/errors.js';

export interface Ctx {
  method: string;
  /** Route relative to the REST root, e.g. `/wc/v3/products/12`. */
  route: string;
  /** Route relative to the namespace, e.g. `/products/12`. */
  wcRoute: string;
  urlParams: Record<string, string>;
  /** Merged params: defaults < URL < query < form body < JSON body (WP_REST_Request::get_parameter_order()). */
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  /** Decoded query pairs in request order (for the Link header). */
  queryPairs: [string, string][];
  body: Record<string, unknown>;
  key: KeyRecord | null;
  store: Store;
  /** The request's headers (the Store API reads `Cart-Token` and `Nonce`). */
  headers?: Headers;
  /** The peer's address (the Store API's rate limit counts by it). */
  remoteAddress?: string;
}

/** A handler's answer: the kit's Reply (status, body, headers), encoded by rest/respond.ts. */
export type Result = Reply;

export type Handler = (ctx: Ctx) => Result | Promise<Result>;

export const READABLE = ['GET'] as const;
export const CREATABLE = ['POST'] as const;
export const EDITABLE = ['POST', 'PUT', 'PATCH'] as const;
export const DELETABLE = ['DELETE'] as const;

interface RouteEntry {
  pattern: string;
  regex: RegExp;
  names: string[];
  handlers: Map<string, Handler>;
}

/** A WordPress-style route table: `(?P<id>[\d]+)` patterns, case-insensitive, whole-route match. */
export class Router {
  private readonly routes: RouteEntry[] = [];

  add(pattern: string, methods: readonly string[], handler: Handler): void {
    let entry = this.routes.find((r) => r.pattern === pattern);
    if (!entry) {
      const names: string[] = [];
      const source = pattern.replace(/\(\?P<([a-z_]+)>/g, (_m, name: string) => {
        names.push(name);
        return '(';
      });
      entry = { pattern, regex: new RegExp(`^${source}$`, 'i'), names, handlers: new Map() };
      this.routes.push(entry);
    }
    for (const m of methods) entry.handlers.set(m, handler);
  }

  /** The handler for a route+method, `null` when no route matches (rest_no_route). HEAD is served by GET. */
  match(route: string, method: string): { handler: Handler; urlParams: Record<string, string> } | null {
    for (const entry of this.routes) {
      const m = entry.regex.exec(route);
      if (!m) continue;
      const handler =
        entry.handlers.get(method) ?? (method === 'HEAD' ? entry.handlers.get('GET') : undefined);
      if (!handler) continue;
      const urlParams: Record<string, string> = {};
      entry.names.forEach((name, i) => {
        urlParams[name] = m[i + 1] ?? '';
      });
      return { handler, urlParams };
    }
    return null;
  }

  /** Methods any route matching `route` accepts (for OPTIONS). */
  methodsFor(route: string): string[] | null {
    const out = new Set<string>();
    for (const entry of this.routes) {
      if (entry.regex.test(route)) for (const m of entry.handlers.keys()) out.add(m);
    }
    return out.size > 0 ? [...out] : null;
  }

  list(): { pattern: string; methods: string[] }[] {
    return this.routes.map((r) => ({ pattern: r.pattern, methods: [...r.handlers.keys()] }));
  }
}

/** Permission callbacks: the API keys act as the shop administrator, so only anonymous requests fail (401). */
export function requireCap(ctx: Ctx, cap: Capability): void {
  if (ctx.key) return;
  const [code, message] = CAPABILITY[cap];
  throw forbidden(false, code, message);
}

/** Parses a `(?P<id>[\d]+)` URL param; values beyond PHP_INT_MAX resolve to nothing. */
export function idParam(ctx: Ctx, name = 'id'): number {
  const raw = ctx.urlParams[name] ?? '';
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : -1;
}
