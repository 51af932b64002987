import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

it("the README's quick start runs as printed: node quickstart.mjs beside the sandbox", async () => {
  const readme = await readFile(`${root}README.md`, 'utf8');
  const block = /## Quick start\n\n```js\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block).toBeDefined();
  // Saved next to this package's package.json, `@x/store` resolves to the package itself (its exports map,
  // so dist/, as a user gets it). STORE_URL is the README's own switch; the keys stay its dev-key defaults.
  const file = `${root}test/integration/.quickstart-${process.pid}.mjs`;
  await writeFile(file, block!);
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [file], {
      cwd: root,
      env: { ...env, STORE_URL: demo.store.url },
      timeout: 60_000,
    });
    expect(stdout).toMatch(/^\d+ products, \d+ pages$/m);
    expect(stdout).toMatch(/^processing 24\.00$/m);
  } finally {
    await rm(file, { force: true });
  }
});

// The README's install section packs the packages; a package packed before it is built would install and
// then fail at its first import, so each package's prepack refuses it (scripts/check-dist.mjs).
it.each(['core', 'store', 'transcription', 'realtime', 'sandbox'])(
  '`pnpm pack` refuses @x/%s without dist/, naming the build to run',
  async (name) => {
    const manifest = JSON.parse(await readFile(`${root}../${name}/package.json`, 'utf8'));
    // A copy of the package without dist/ (and without its workspace dependencies, which pnpm would
    // resolve before packing), at the same depth below the repository's scripts/.
    const scratch = await mkdtemp(join(tmpdir(), 'x-pack-'));
    try {
      await mkdir(join(scratch, 'scripts'));
      await mkdir(join(scratch, 'packages', name), { recursive: true });
      await copyFile(`${root}../../scripts/check-dist.mjs`, join(scratch, 'scripts', 'check-dist.mjs'));
      const { dependencies: _d, devDependencies: _dd, peerDependencies: _p, ...rest } = manifest;
      await writeFile(join(scratch, 'packages', name, 'package.json'), JSON.stringify(rest));
      const packed = promisify(execFile)('pnpm', ['pack'], {
        cwd: join(scratch, 'packages', name),
        env,
        timeout: 60_000,
      });
      await expect(packed).rejects.toMatchObject({
        stderr: expect.stringContaining(`${manifest.name}: not packed, because it is not built`),
      });
      expect((await readdir(join(scratch, 'packages', name))).filter((f) => f.endsWith('.tgz'))).toEqual([]);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  },
);

it('`pnpm pack` of the built package holds dist/ and prints only its JSON', async () => {
  const scratch = await mkdtemp(join(tmpdir(), 'x-pack-'));
  try {
    const { stdout } = await promisify(execFile)('pnpm', ['pack', '--json', '--pack-destination', scratch], {
      cwd: root,
      env,
      timeout: 60_000,
    });
    // pnpm prints the prepack script's header before the JSON; check-dist itself prints nothing.
    const json = JSON.parse(stdout.slice(stdout.search(/^\{/m)));
    expect(json.files.map((f: { path: string }) => f.path)).toContain('dist/index.js');
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
});
