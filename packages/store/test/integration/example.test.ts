import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

it('the README quick start runs end to end against the sandbox', async () => {
  const cwd = fileURLToPath(new URL('../..', import.meta.url));
  const { STORE_URL: _url, STORE_KEY: _key, STORE_SECRET: _secret, ...env } = process.env;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'examples/quickstart.ts'],
    { cwd, env, timeout: 60_000 },
  );
  expect(stdout).toMatch(/^\d+ products; first: /m);
  expect(stdout).toMatch(/^revenue from processing and completed orders: \d+\.\d\d$/m);
  expect(stdout).toMatch(/^order \d+ is processing, total 12\.00 \w{3}$/m);
  expect(stdout).toMatch(/^as expected: 404 woocommerce_rest_product_invalid_id: /m);
});
