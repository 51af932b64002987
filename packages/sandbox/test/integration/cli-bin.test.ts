/**
 * The `x-sandbox` bin as pnpm links it: at install time, before any build, so the file package.json names must
 * be committed (not under dist/), and it must run the built CLI or say how to build it.
 */
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function binPath(): Promise<string> {
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
    files: string[];
  };
  return pkg.bin['x-sandbox']!;
}

function run(file: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [file, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

/** A package directory with the launcher, and (optionally) a stand-in for the built CLI. */
async function fakePackage(withDist: boolean): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'x-sandbox-bin-'));
  dirs.push(dir);
  const bin = await binPath();
  await mkdir(join(dir, 'bin'));
  await writeFile(join(dir, 'package.json'), '{"type":"module"}');
  await copyFile(join(root, bin), join(dir, bin));
  if (withDist) {
    await mkdir(join(dir, 'dist'));
    await writeFile(
      join(dir, 'dist', 'cli.js'),
      'process.stdout.write("built cli " + process.argv.slice(2).join(" "));',
    );
  }
  return join(dir, bin);
}

describe('x-sandbox bin', () => {
  it('is a committed file outside dist/, shipped in "files", runnable by node', async () => {
    const bin = await binPath();
    expect(bin).not.toMatch(/(^|\/)dist\//);
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain(bin.replace(/^\.\//, '').split('/')[0]);
    expect((await readFile(join(root, bin), 'utf8')).startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('runs the built CLI with its arguments', async () => {
    const res = await run(await fakePackage(true), ['--help']);
    expect(res).toMatchObject({ code: 0, stdout: 'built cli --help' });
  });

  it('says to run pnpm build when dist/cli.js is missing, and exits 1', async () => {
    const res = await run(await fakePackage(false), ['--help']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('dist/cli.js is missing');
    expect(res.stderr).toContain('run `pnpm build`');
  });
});
