#!/usr/bin/env node
// `pnpm dev`: build what the dev processes import, then run the sandbox and the support desk side by side, and
// stop both on Ctrl-C with exit status 0.
//
// Why not `turbo run build && turbo run dev`: the build replayed ~350 lines of tsup output before the two
// blocks that matter (the sandbox's keys, the desk's URL), and Ctrl-C ended in `ELIFECYCLE Command failed`
// three times. pnpm runs a script through `sh -c`; dash forks the command rather than exec'ing it and dies of
// the SIGINT itself, and pnpm reports a script that died of a signal as failed, whatever its child exited
// with. Hence `exec` in each dev script (package.json), and one node process here that waits for its
// children and exits with their status. turbo, which exits 130 on SIGINT, only builds. The dev scripts run
// `node --import tsx`, not the tsx CLI: that relays a signal through a parent process which SIGKILLs its
// child (exit 130) when the child has not acknowledged the signal within 30 ms, as a busy one may not.
//
// Each dev process runs in a process group of its own, so Ctrl-C (SIGINT to the terminal's group) reaches
// only pnpm and this process, and each dev process gets exactly one signal, from here through its pnpm: a
// second one would make pnpm escalate to SIGTERM, on which Vite exits with 143.
//
// Ports: SANDBOX_PORT (8787), PORT (the app server, 5174), WEB_PORT (Vite, 5173).
import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

const root = resolve(import.meta.dirname, '..');
const sandboxPort = process.env.SANDBOX_PORT ?? '8787';

// The desk's dependencies (the SDKs and, as a dev dependency, the sandbox), not the desk's own page build,
// which Vite serves in dev. Quiet unless it fails; turbo caches it, so a second start does no work.
const started = Date.now();
const build = spawnSync(
  'pnpm',
  ['exec', 'turbo', 'run', 'build', '--filter=support-desk^...', '--output-logs=errors-only'],
  { cwd: root, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } },
);
if (build.status !== 0) {
  process.stderr.write(`${build.stdout}${build.stderr}\npnpm dev: the build failed (above).\n`);
  process.exit(build.status ?? 1);
}
const cached = /Cached:\s+(\d+) cached, (\d+) total/.exec(build.stdout);
console.log(
  `pnpm dev: packages built in ${((Date.now() - started) / 1000).toFixed(1)} s${cached ? ` (${cached[1]} of ${cached[2]} from turbo's cache)` : ''}`,
);

const tasks = [
  { label: 'sandbox', filter: '@x/sandbox', args: ['--port', sandboxPort], env: {} },
  {
    label: 'desk',
    filter: 'support-desk',
    args: [],
    env: { SANDBOX_URL: `http://127.0.0.1:${sandboxPort}` },
  },
];
const width = Math.max(...tasks.map((t) => t.label.length));

let stopping = false;
let failed = 0;
const children = tasks.map((task) => {
  // --silent: no `> package@version dev` header per script; the dev scripts print what matters.
  const child = spawn('pnpm', ['--silent', '--filter', task.filter, 'run', 'dev', ...task.args], {
    cwd: root,
    env: { ...process.env, ...task.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const prefix = `${task.label.padEnd(width)} | `;
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) =>
      out.write(`${prefix}${line}\n`),
    );
  }
  const exited = new Promise((done) => {
    child.on('exit', (code, signal) => {
      if (code !== 0) {
        failed = failed || (code ?? 1);
        process.stderr.write(`${prefix}exited with ${signal ?? `code ${code}`}\n`);
      }
      // One process ending on its own (a port in use, a crash) ends the other: half a dev setup only confuses.
      stop('SIGTERM');
      done();
    });
  });
  return { child, exited };
});

/** Passes the first signal on (pnpm may send this process a second copy of Ctrl-C's; it is not news). */
function stop(signal) {
  if (stopping) return;
  stopping = true;
  for (const { child } of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  }
}
// A crash of this process must not leave the dev servers holding their ports in groups of their own.
process.on('exit', () => {
  for (const { child } of children) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }
  }
});
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

await Promise.all(children.map((c) => c.exited));
process.exit(failed);
