/**
 * soketi 1.6.1, a Pusher-protocol server nobody here wrote, as a second real peer for the realtime tests.
 *
 * Only the npm registry is reachable here, and soketi's manifest takes `uWebSockets.js` from a git URL. So
 * it is installed (once, outside the workspace, so its ~300 MB tree stays out of the lockfile) next to a
 * tiny `uWebSockets.js` package that loads the binaries the npm package `uws-pack` ships, and an npm
 * `overrides` entry makes soketi use it:
 * - `uws-pack` 20.0.8 has builds for Node ABIs 108/115/120/127 (Node 18, 20, 21, 22) linked against glibc
 *   2.27; `@btc-vision/uwebsockets.js` (Node 20..25) needs glibc 2.38, which Debian 12 does not have.
 * - `uws-pack` exports ESM only, and soketi `require()`s; the shim loads the `.node` file directly.
 * Node 24 (ABI 137) has no binary in `uws-pack`. soketi is a separate process, so which Node runs it does
 * not matter to the SDK under test: on a Node whose ABI `uws-pack` lacks, soketi runs on Node 20 from the
 * npm package `node-linux-<arch>` (installed once into the same cache, as `.ci/run` installs Node 24).
 *
 * The cache is `$SOKETI_CACHE_DIR`, else `$XDG_CACHE_HOME/x-sdk-soketi`, else `~/.cache/x-sdk-soketi`; a
 * version directory is written under a temporary name and renamed, so concurrent first runs cannot see a
 * half-installed tree.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const SOKETI_VERSION = '1.6.1';
const UWS_PACK_VERSION = '20.0.8';
/** soketi's default app, which every soketi user starts with. */
export const SOKETI_APP = { appId: 'app-id', key: 'app-key', secret: 'app-secret' } as const;

const SHIM = `'use strict';
// uws-pack ships uWebSockets.js binaries (glibc 2.27) as ESM only; soketi require()s uWebSockets.js.
const fs = require('node:fs');
const path = require('node:path');
const file = 'uws_' + process.platform + '_' + process.arch + '_' + process.versions.modules + '.node';
for (const dir of module.paths) {
  const candidate = path.join(dir, 'uws-pack', 'dist', 'bin', file);
  if (fs.existsSync(candidate)) {
    module.exports = require(candidate);
    return;
  }
}
throw new Error('uws-pack ${UWS_PACK_VERSION} has no ' + file + ' (this platform or Node.js ABI)');
`;

function cacheRoot(): string {
  if (process.env.SOKETI_CACHE_DIR) return process.env.SOKETI_CACHE_DIR;
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'x-sdk-soketi');
}

/** Installs soketi into the cache unless it is there; returns the path of its `bin/server.js`. */
export async function installSoketi(): Promise<string> {
  const dir = join(cacheRoot(), `soketi-${SOKETI_VERSION}-uws-pack-${UWS_PACK_VERSION}`);
  const bin = join(dir, 'node_modules', '@soketi', 'soketi', 'bin', 'server.js');
  if (existsSync(join(dir, '.installed'))) return bin;
  const staging = `${dir}.${process.pid}.${Date.now()}`;
  await mkdir(join(staging, 'uws-shim'), { recursive: true });
  await writeFile(
    join(staging, 'uws-shim', 'package.json'),
    JSON.stringify({
      name: 'uWebSockets.js',
      version: `${UWS_PACK_VERSION}-shim`,
      main: 'index.js',
      dependencies: { 'uws-pack': UWS_PACK_VERSION },
    }),
  );
  await writeFile(join(staging, 'uws-shim', 'index.js'), SHIM);
  await writeFile(
    join(staging, 'package.json'),
    JSON.stringify({
      private: true,
      dependencies: { '@soketi/soketi': SOKETI_VERSION, 'uWebSockets.js': 'file:./uws-shim' },
      overrides: { 'uWebSockets.js': '$uWebSockets.js' },
    }),
  );
  // No install scripts: soketi needs none, and its optional database drivers would try to build.
  await promisify(execFile)(
    'npm',
    ['install', '--prefix', staging, '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'],
    { maxBuffer: 16 * 1024 * 1024, timeout: 600_000 },
  );
  await writeFile(join(staging, '.installed'), `${new Date().toISOString()}\n`);
  // Another run may have finished first: keep its tree, drop ours. (npm links uws-shim relative to staging,
  // so the rename keeps the link valid: the link is `../uws-shim`.)
  try {
    await rename(staging, dir);
  } catch {
    await rm(staging, { recursive: true, force: true });
  }
  return bin;
}

/** Node ABIs (`process.versions.modules`) that `uws-pack` ${UWS_PACK_VERSION} has binaries for. */
const UWS_PACK_ABIS = ['108', '115', '120', '127'];

/** The `node` that runs soketi: this one when uws-pack has its ABI, else Node 20 from npm (cached). */
async function soketiNode(): Promise<string> {
  if (UWS_PACK_ABIS.includes(process.versions.modules)) return process.execPath;
  const dir = join(cacheRoot(), 'node-20');
  const bin = join(dir, 'node_modules', '.bin', 'node');
  if (existsSync(join(dir, '.installed'))) return bin;
  const staging = `${dir}.${process.pid}.${Date.now()}`;
  await promisify(execFile)(
    'npm',
    [
      'install',
      '--prefix',
      staging,
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `node-linux-${process.arch}@20`,
    ],
    { maxBuffer: 16 * 1024 * 1024, timeout: 600_000 },
  );
  await writeFile(join(staging, '.installed'), `${new Date().toISOString()}\n`);
  try {
    await rename(staging, dir);
  } catch {
    await rm(staging, { recursive: true, force: true });
  }
  return bin;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface Soketi {
  host: string;
  port: number;
  /** `ws://127.0.0.1:{port}`: the shape `wsTarget` and `ClientFleet` take. */
  wsUrl: string;
  key: string;
  /** Everything soketi printed, for a failure message. */
  output(): string;
  close(): Promise<void>;
}

/**
 * Starts soketi with its default app on free ports (WebSocket + HTTP API, and the metrics port it opens
 * anyway), client events and user authentication switched on for that app; resolves once the HTTP API answers.
 */
export async function startSoketi(env: Record<string, string> = {}): Promise<Soketi> {
  const bin = await installSoketi();
  const node = await soketiNode();
  const port = await freePort();
  const metricsPort = await freePort();
  let output = '';
  const child: ChildProcess = spawn(node, [bin, 'start'], {
    env: {
      ...process.env,
      SOKETI_HOST: '127.0.0.1',
      SOKETI_PORT: String(port),
      SOKETI_METRICS_SERVER_PORT: String(metricsPort),
      SOKETI_DEFAULT_APP_ENABLE_CLIENT_MESSAGES: 'true',
      SOKETI_DEFAULT_APP_USER_AUTHENTICATION: 'true',
      // soketi waits this long for connections to leave on SIGTERM (default 10 s; tests close theirs first).
      SOKETI_SHUTDOWN_GRACE_PERIOD: '100',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`soketi exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${base}/`)).ok) break;
    } catch {
      // not listening yet
    }
    if (attempt >= 300) {
      child.kill('SIGKILL');
      throw new Error(`soketi did not answer on ${base} after 300 tries:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    host: '127.0.0.1',
    port,
    wsUrl: `ws://127.0.0.1:${port}`,
    key: SOKETI_APP.key,
    output: () => output,
    async close() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}
