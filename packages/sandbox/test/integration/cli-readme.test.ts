/** The README's quick starts as a reader follows them: its code run as printed, its commands as they are. */
import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = () => readFile(`${root}README.md`, 'utf8');

it('the in-process example runs as printed: node sandbox.mjs', async () => {
  const block = /## In-process API \(tests\)\n\n[\s\S]*?```js\n([\s\S]*?)```/.exec(await readme())?.[1];
  expect(block).toBeDefined();
  // Next to this package's package.json, `@x/sandbox` resolves to the package itself (its exports map:
  // dist/, as a user gets it).
  const file = `${root}test/integration/.sandbox-${process.pid}.mjs`;
  await writeFile(file, block!);
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [file], { cwd: root, timeout: 60_000 });
    expect(stdout).toMatch(/^30 products; first: Mug$/m);
  } finally {
    await rm(file, { force: true });
  }
});

it("says what the dev task runs, as package.json's dev script does", async () => {
  const text = (await readme()).replace(/\s+/g, ' ');
  const said = /`pnpm --filter @x\/sandbox dev` runs `(\S+)` with `([^`]+)`/.exec(text);
  expect(said).not.toBeNull();
  const { scripts } = JSON.parse(await readFile(`${root}package.json`, 'utf8'));
  expect(scripts.dev).toMatch(new RegExp(` ${said![1]!.replace('.', '\\.')} ${said![2]!}$`));
});
