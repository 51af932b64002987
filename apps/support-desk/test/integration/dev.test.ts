/**
 * `pnpm dev` from the repository root, as a new user runs it: the build (turbo's cache makes a second run
 * cheap), the sandbox and the desk, then Ctrl-C, which a terminal sends as SIGINT to the whole process group.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../..', import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
    socket.connect(port, '127.0.0.1');
  });
}

let dev: ChildProcess | undefined;
// The desk's calls go to a directory of the test's own, not the checkout's .data/desk (a developer's own
// `pnpm dev` may hold that one).
const dataDir = mkdtempSync(join(tmpdir(), 'support-desk-dev-'));
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
  // Only when an assertion failed midway: pnpm dev's own group, whose dev.mjs takes its children down.
  if (dev?.exitCode === null && dev.pid) process.kill(-dev.pid, 'SIGKILL');
});

it('pnpm dev prints the URL and the keys in a few lines, and Ctrl-C ends every process with status 0', async () => {
  const ports = { SANDBOX_PORT: await freePort(), PORT: await freePort(), WEB_PORT: await freePort() };
  // Not vitest's environment: pnpm dev is not a test run (NODE_ENV=test would change what Vite serves).
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(VITEST|NODE_ENV$|TEST$)/.test(name)),
  );
  dev = spawn('pnpm', ['dev'], {
    cwd: root,
    env: {
      ...env,
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
      DESK_DATA_DIR: dataDir,
    },
    detached: true, // its own process group, as a terminal's foreground job
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Support desk: open')) resolve();
    };
    dev!.stdout!.on('data', onData);
    dev!.stderr!.on('data', onData);
    dev!.once('exit', (code) =>
      reject(new Error(`pnpm dev exited (${code}) before it was ready:\n${output}`)),
    );
  });
  const exited = new Promise<number | null>((resolve) => dev!.once('exit', (code) => resolve(code)));
  await ready;
  // What a user reads before the desk is up; later lines are the processes' own logs of what they serve.
  const startup = output;

  const page = `http://127.0.0.1:${ports.WEB_PORT}/`;
  expect(output).toContain(`Support desk: open ${page}`);
  // The keys a user needs to talk to the sandbox themselves.
  expect(output).toContain('ck_sandbox_dev_read_write');
  expect(output).toContain('sandbox_dev_transcription_key');
  expect(output).toContain('sandbox_dev_realtime_key');
  // What it says is true: the page is served and Vite proxies the API to the app server.
  expect((await fetch(page)).status).toBe(200);
  const config = await fetch(`${page}api/config`);
  expect(config.status).toBe(200);
  expect(JSON.stringify(await config.json())).toContain('sandbox_dev_realtime_key');
  expect(output).toContain(`calls kept in  PGlite in ${dataDir}`);

  process.kill(-dev.pid!, 'SIGINT');
  expect(await exited).toBe(0);
  expect(output).not.toContain('ELIFECYCLE');
  expect(output).not.toMatch(/exited with/);
  // The build's own output (hundreds of lines of tsup) is not replayed: the two banners and a few lines.
  expect(startup.trimEnd().split('\n').length, startup).toBeLessThanOrEqual(80);
  // pnpm dev exits after its children: nothing is left listening.
  for (const port of Object.values(ports)) expect(await refused(port)).toBe(true);
}, 400_000);
