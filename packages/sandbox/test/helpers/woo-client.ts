/**
 * The official client `@woocommerce/woocommerce-rest-api` 1.0.2, loaded so it works under vitest/Node ESM.
 *
 * The package ships CJS (`main: index`) with `exports.default = class` and no `exports` map, so a native
 * ESM `import WooCommerceRestApi from '...'` yields the CJS exports object and `new` throws
 * "is not a constructor" (woocommerce-rest-api-js-lib issue #66). Requiring it and taking `.default`
 * works the same under Node and vitest.
 */
import https from 'node:https';
import { createRequire } from 'node:module';
import type WooCommerceRestApiClass from '@woocommerce/woocommerce-rest-api';
import { expect } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';

const require = createRequire(import.meta.url);
const loaded = require('@woocommerce/woocommerce-rest-api') as { default: typeof WooCommerceRestApiClass };

export const WooCommerceRestApi: typeof WooCommerceRestApiClass = loaded.default;
export type WooCommerceRestApi = WooCommerceRestApiClass;

export interface ClientTarget {
  url: string;
  consumerKey: string;
  consumerSecret: string;
  /** PEM of the sandbox's self-signed certificate, trusted through an https.Agent (TLS stays verified). */
  certificate?: string;
  queryStringAuth?: boolean;
}

export function makeClient(target: ClientTarget): WooCommerceRestApiClass {
  return new WooCommerceRestApi({
    url: target.url,
    consumerKey: target.consumerKey,
    consumerSecret: target.consumerSecret,
    version: 'wc/v3',
    queryStringAuth: target.queryStringAuth ?? false,
    timeout: 15_000,
    ...(target.certificate
      ? { axiosConfig: { httpsAgent: new https.Agent({ ca: target.certificate }) } }
      : {}),
  });
}

/**
 * An empty store emulator (no seed, no rate limit) over HTTPS or plain HTTP, and the official client pointed at
 * it: Basic auth over HTTPS (query-string keys with `queryStringAuth`), OAuth 1.0a over HTTP.
 */
export async function storeWithOfficialClient(options: {
  https: boolean;
  queryStringAuth?: boolean;
}): Promise<{ sandbox: Sandbox; api: WooCommerceRestApiClass }> {
  const sandbox = await startSandbox({ https: options.https, store: { rateLimit: false, seed: 'none' } });
  const api = makeClient({
    url: sandbox.url,
    consumerKey: sandbox.store.consumerKey,
    consumerSecret: sandbox.store.consumerSecret,
    certificate: sandbox.certificate,
    queryStringAuth: options.queryStringAuth,
  });
  return { sandbox, api };
}

export interface ClientFailure {
  status: number;
  data: any;
  headers: Record<string, unknown>;
  name: string;
}

/** Await a call that must fail with an HTTP error response (AxiosError) and return what came back. */
export async function failure(promise: Promise<unknown>): Promise<ClientFailure> {
  let res: any;
  try {
    res = await promise;
  } catch (err: any) {
    if (!err?.response) throw err;
    return {
      status: err.response.status,
      data: err.response.data,
      headers: err.response.headers ?? {},
      name: err.name,
    };
  }
  return expect.fail(
    `expected an error response, got HTTP ${res?.status} ${JSON.stringify(res?.data).slice(0, 300)}`,
  );
}

/** Parse an RFC 8288 Link header into rel → URL. */
export function parseLink(header: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof header !== 'string') return out;
  for (const part of header.split(/,\s*(?=<)/)) {
    const m = /<([^>]*)>\s*;\s*rel="?([^";]+)"?/.exec(part);
    if (m) out[m[2]!] = m[1]!;
  }
  return out;
}
