import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

it('the README example runs end to end', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'examples/quickstart.ts'],
    { cwd: root, timeout: 60_000 },
  );
  expect(stdout).toMatch(/^note 3: note 3 \(request_id=req_\d+\)$/m);
  expect(stdout).toMatch(/^25 notes in 3 pages$/m);
  expect(stdout).toMatch(/^walked 25 notes$/m);
  expect(stdout).toMatch(/^NotFoundError: 404 not_found: No note 99\. \(request_id=req_\d+\)$/m);
  expect(stdout).toMatch(/^ValidationError: Invalid notes\.list params: per_page: must be at most 100$/m);
});

let sandbox: ChildProcess | undefined;
afterAll(() => {
  sandbox?.kill('SIGKILL');
});

/**
 * `npx x-sandbox --seed demo`, as the README says, on a free port. Core does not depend on the sandbox, so
 * this runs the repository's CLI from source (its dist may be mid-build in a parallel `pnpm test`).
 */
async function startSandbox(): Promise<string> {
  const cli = fileURLToPath(new URL('../../../sandbox/src/cli.ts', import.meta.url));
  sandbox = spawn(process.execPath, ['--import', 'tsx', cli, '--seed', 'demo', '--port', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  return new Promise((resolve, reject) => {
    sandbox!.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      if (url) resolve(url);
    });
    sandbox!.once('exit', (code) => reject(new Error(`x-sandbox exited (${code}):\n${stdout}`)));
  });
}

it("the README's quick start runs as printed: node quickstart.mjs beside the sandbox", async () => {
  const readme = await readFile(`${root}README.md`, 'utf8');
  const block = /## Quick start\n\n[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block).toBeDefined();
  const url = await startSandbox();
  // Next to this package's package.json, `@x/core` resolves to the package itself (its exports map: dist/,
  // as a user gets it). SANDBOX_URL is the README's own switch, for a sandbox on another port.
  const file = `${root}test/integration/.quickstart-${process.pid}.mjs`;
  await writeFile(file, block!);
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [file], {
      cwd: root,
      env: { ...process.env, SANDBOX_URL: url },
      timeout: 60_000,
    });
    expect(stdout).toMatch(/^30 products in 3 pages; first: \S/m);
    expect(stdout).toMatch(/^walked 30 products$/m);
    expect(stdout).toMatch(/^NotFoundError: 404 woocommerce_rest_product_invalid_id: Invalid ID\.$/m);
  } finally {
    await rm(file, { force: true });
  }
});
