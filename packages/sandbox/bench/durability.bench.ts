/**
 * Create throughput with `--data` and what a `kill -9` loses: the CLI as a child process, WRITERS concurrent
 * clients creating customers over HTTP for SECONDS, then (second run) a SIGKILL in the middle of the burst and
 * a restart on the same file, counting acknowledged creates that are gone and ids handed out twice.
 *
 *   cd packages/sandbox && pnpm exec tsx bench/durability.bench.ts   (BENCH_SECONDS=3 BENCH_WRITERS=8)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const WRITERS = Number(process.env.BENCH_WRITERS ?? 8);
const AUTH = `Basic ${Buffer.from('ck_sandbox_dev_read_write:cs_sandbox_dev_read_write').toString('base64')}`;

interface Running {
  child: ChildProcess;
  url: string;
  exited: Promise<unknown>;
}

function startCli(file: string): Promise<Running> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli.ts', '--port', '0', '--rate-limit', 'off', '--data', file],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  // Listened for from the start: a SIGKILLed child may be gone before anyone asks.
  const exited = new Promise((r) => child.once('exit', r));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m && out.includes('Ctrl+C to stop.')) resolve({ child, url: m[1]!, exited });
    });
    child.stderr!.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.on('exit', (code) => reject(new Error(`exited (${code}) before it was ready:\n${out}`)));
  });
}

/** WRITERS loops creating customers until `stop()`; returns the acknowledged ids. */
function burst(url: string): { stop: () => Promise<number[]> } {
  let running = true;
  const acked: number[] = [];
  let n = 0;
  const writer = async (w: number) => {
    while (running) {
      try {
        const res = await fetch(`${url}/wp-json/wc/v3/customers`, {
          method: 'POST',
          headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
          body: JSON.stringify({ email: `w${w}-${n++}@example.com` }),
        });
        const body = (await res.json()) as { id?: number };
        if (res.status === 201 && typeof body.id === 'number') acked.push(body.id);
      } catch {
        return; // the server went away (SIGKILL)
      }
    }
  };
  const loops = Array.from({ length: WRITERS }, (_, w) => writer(w));
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
      return acked;
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function throughput(dir: string): Promise<number> {
  const { child, url, exited } = await startCli(join(dir, 'throughput.json'));
  const started = performance.now();
  const b = burst(url);
  await sleep(SECONDS * 1000);
  const acked = await b.stop();
  const rate = acked.length / ((performance.now() - started) / 1000);
  child.kill('SIGTERM');
  await exited;
  return rate;
}

async function crash(
  dir: string,
): Promise<{ acked: number; missing: number; reused: boolean; tmp: string[] }> {
  const file = join(dir, 'crash.json');
  const first = await startCli(file);
  const b = burst(first.url);
  await sleep(SECONDS * 500);
  first.child.kill('SIGKILL');
  const acked = await b.stop();
  await first.exited;
  const tmp = (await readdir(dir)).filter((f) => f.endsWith('.tmp'));
  const second = await startCli(file);
  let missing = 0;
  for (const id of acked) {
    const res = await fetch(`${second.url}/wp-json/wc/v3/customers/${id}`, {
      headers: { Authorization: AUTH },
    });
    await res.arrayBuffer();
    if (res.status !== 200) missing++;
  }
  const next = await fetch(`${second.url}/wp-json/wc/v3/customers`, {
    method: 'POST',
    headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'after-restart@example.com' }),
  });
  const nextId = ((await next.json()) as { id: number }).id;
  second.child.kill('SIGTERM');
  await second.exited;
  return { acked: acked.length, missing, reused: acked.includes(nextId), tmp };
}

const dir = await mkdtemp(join(tmpdir(), 'x-sandbox-durability-'));
try {
  const rate = await throughput(dir);
  console.log(`creates/s with ${WRITERS} writers over ${SECONDS}s (--data): ${rate.toFixed(0)}`);
  const c = await crash(dir);
  console.log(
    `kill -9 mid-burst: ${c.acked} acknowledged, ${c.missing} missing after restart, next id reused: ${c.reused}, temp files left: ${c.tmp.length}`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
