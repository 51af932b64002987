import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { clientFor, sandboxForFile } from '../helpers/sandbox.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const demo = sandboxForFile({ store: { seed: 'demo' } });

it("the README's storefront example runs as printed: node storefront.mjs beside the demo sandbox", async () => {
  const readme = await readFile(`${root}README.md`, 'utf8');
  const block = /## Storefront: the Store API[^\n]*\n[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block).toBeDefined();
  // What the README asks of the shop: a payment method enabled.
  await clientFor(demo).paymentGateways.update('cod', { enabled: true });
  // Beside this package's package.json, `@x/store/storefront` resolves through its exports map to dist/.
  const file = `${root}test/storefront/.storefront-${process.pid}.mjs`;
  await writeFile(file, block!);
  try {
    const { STORE_URL: _url, ...env } = process.env;
    const { stdout } = await promisify(execFile)(process.execPath, [file], {
      cwd: root,
      env: { ...env, STORE_URL: demo.store.url },
      timeout: 60_000,
    });
    // Five products, dearest first, each with its formatted price.
    expect(stdout.split('\n').filter((l) => /^(?!total )\S.* \$[\d,]+\.\d\d$/.test(l)).length).toBe(5);
    expect(stdout).toMatch(/^total \$[\d,]+\.\d\d saved \$[\d,]+\.\d\d$/m);
    expect(stdout).toMatch(/^order \d+ is processing: 1 line\(s\)$/m);
  } finally {
    await rm(file, { force: true });
  }
});
