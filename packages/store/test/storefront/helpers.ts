import { StorefrontClient, type StorefrontClientOptions } from '../../src/storefront/index.js';
import type { Sandbox } from '../helpers/sandbox.js';

/** A storefront client on the sandbox: no client-side limit, silent unless the test gives a logger. */
export function storefrontFor(
  box: Sandbox,
  overrides: Partial<StorefrontClientOptions> = {},
): StorefrontClient {
  return new StorefrontClient({ url: box.store.url, rateLimit: false, logLevel: 'off', ...overrides });
}

/** A logger that keeps every line and argument as text, for asserting what reached it. */
export function recordingLogger(): { lines: string[]; logger: StorefrontClientOptions['logger'] } {
  const lines: string[] = [];
  const keep =
    (level: string) =>
    (message: string, ...args: unknown[]) =>
      lines.push(
        `${level} ${message} ${args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')}`,
      );
  return {
    lines,
    logger: { debug: keep('debug'), info: keep('info'), warn: keep('warn'), error: keep('error') },
  };
}

export const FRANCE = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  address_1: '1 rue de Rivoli',
  city: 'Paris',
  postcode: '75001',
  country: 'FR',
  email: 'ada@example.com',
};
