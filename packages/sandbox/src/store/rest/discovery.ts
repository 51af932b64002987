import type { Store } from '../data/store.js';
import type { Result, Router } from './router.js';

/** `GET /wp-json/wc/v3`: the namespace and its routes, answered without authentication. */
export function namespaceIndex(store: Store, router: Router): Result {
  const routes: Record<string, unknown> = {
    '/wc/v3': {
      namespace: 'wc/v3',
      methods: ['GET'],
      endpoints: [
        {
          methods: ['GET'],
          args: {
            namespace: { default: 'wc/v3', required: false },
            context: { default: 'view', required: false },
          },
        },
      ],
      _links: { self: [{ href: `${store.homeUrl}/wp-json/wc/v3` }] },
    },
  };
  for (const r of router.list()) {
    // The Store API's routes are another namespace's (wc/store/v1).
    if (!r.pattern.startsWith('/wc/v3')) continue;
    const route = r.pattern.replace(/\\\\/g, '\\');
    routes[route] = {
      namespace: 'wc/v3',
      methods: r.methods,
      endpoints: [{ methods: r.methods, args: {} }],
      ...(route.includes('(?P<') ? {} : { _links: { self: [{ href: `${store.homeUrl}/wp-json${route}` }] } }),
    };
  }
  return {
    status: 200,
    body: { namespace: 'wc/v3', routes, _links: { up: [{ href: `${store.homeUrl}/wp-json/` }] } },
  };
}

/** `GET /wp-json/`: the site index. */
export function siteIndex(store: Store): Result {
  return {
    status: 200,
    body: {
      name: 'x-sandbox store',
      description: 'WooCommerce REST API v3 emulator',
      url: store.homeUrl,
      home: store.homeUrl,
      gmt_offset: '0',
      timezone_string: 'UTC',
      namespaces: ['wc/v3'],
      authentication: [],
      routes: {},
      _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] },
    },
  };
}

/** `GET /`: the shop's front page, HTML as on a real site. */
export function homePage(method: string): Response {
  return new Response(
    method === 'HEAD'
      ? null
      : '<!doctype html><title>x-sandbox store</title><p>WooCommerce REST API v3 emulator: see /wp-json/wc/v3</p>',
    {
      status: 200,
      headers: { 'Content-Type': 'text/html; charset=UTF-8' },
    },
  );
}
