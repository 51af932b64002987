import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { useFaultServer } from '../helpers/fault-server.js';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));

const server = useFaultServer();

it('errors thrown by the CJS build are instances of the ESM build classes, and back', async () => {
  expect(existsSync(`${dist}index.cjs`), 'build @x/core first (turbo runs build before test)').toBe(true);
  const cjs = createRequire(import.meta.url)(`${dist}index.cjs`);
  const esm = await import(/* @vite-ignore */ `${dist}index.js`);
  expect(cjs.NotFoundError).not.toBe(esm.NotFoundError);

  server.replies.push({ status: 404, json: { code: 'missing', message: 'Nope.' } });
  const client = new cjs.BaseClient(
    { baseURL: server.url, rateLimit: false, maxRetries: 0 },
    { packageName: 'p', packageVersion: '1' },
  );
  const fromCjs = await client.request({ method: 'GET', path: '/x' }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(fromCjs).toBeInstanceOf(esm.NotFoundError);
  expect(fromCjs).toBeInstanceOf(esm.APIError);
  expect(fromCjs).toBeInstanceOf(esm.XError);
  expect(fromCjs).not.toBeInstanceOf(esm.RateLimitError);
  expect(new esm.TimeoutError('t')).toBeInstanceOf(cjs.ConnectionError);
});
