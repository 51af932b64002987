import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Sandbox, sandbox } from '../helpers/sandbox.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const source = fileURLToPath(new URL('../../src/index.ts', import.meta.url));

/**
 * Runs a user-facing script as a user would (its own process, `import ... from '@x/store'`), but against
 * this package's source rather than a `dist` that may be stale or missing.
 */
async function run(code: string, name: string, env: NodeJS.ProcessEnv): Promise<string> {
  const file = `${root}test/integration/.${name}-${process.pid}.ts`;
  await writeFile(file, code.replaceAll("from '@x/store'", `from ${JSON.stringify(source)}`));
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', file], {
      cwd: root,
      env,
      timeout: 60_000,
    });
    return stdout;
  } finally {
    await rm(file, { force: true });
  }
}

const { STORE_URL: _url, STORE_KEY: _key, STORE_SECRET: _secret, ...env } = process.env;

let demo: Sandbox;
beforeAll(async () => {
  demo = await sandbox({ store: { seed: 'demo' } });
});
afterAll(() => demo.close());

it('examples/quickstart.ts runs end to end against a sandbox of its own', async () => {
  const stdout = await run(await readFile(`${root}examples/quickstart.ts`, 'utf8'), 'example', env);
  expect(stdout).toMatch(/^\d+ products; first: /m);
  expect(stdout).toMatch(/^revenue from processing and completed orders: \d+\.\d\d$/m);
  expect(stdout).toMatch(/^order \d+ is processing, total 12\.00 \w{3}$/m);
  expect(stdout).toMatch(/^as expected: 404 woocommerce_rest_product_invalid_id: /m);
});

it("the README's quick start, as printed, runs against the demo store", async () => {
  const readme = await readFile(`${root}README.md`, 'utf8');
  const block = /## Quick start\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block).toBeDefined();
  // Only the placeholder credentials change: the rest runs as a reader would paste it.
  const options = JSON.stringify({
    url: demo.store.url,
    consumerKey: demo.store.consumerKey,
    consumerSecret: demo.store.consumerSecret,
  });
  const code = block!.replace(/new StoreClient\(\{[^}]*\}\)/, `new StoreClient(${options})`);
  expect(code).toContain(demo.store.url);
  const stdout = await run(code, 'readme', env);
  expect(stdout).toMatch(/^\d+ products, \d+ pages$/m);
  expect(stdout).toMatch(/^processing 24\.00$/m);
});
