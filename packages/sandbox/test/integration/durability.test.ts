/**
 * `--data FILE` across a crash: the CLI as a real child process, concurrent writers over HTTP, `kill -9` in the
 * middle of the burst, a restart on the same file. And data files it must refuse, saying which and why.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_DEV_KEYS, startSandbox } from '../../src/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const AUTH = `Basic ${Buffer.from(
  `${STORE_DEV_KEYS.read_write.consumerKey}:${STORE_DEV_KEYS.read_write.consumerSecret}`,
).toString('base64')}`;
const WRITERS = 8;
/** Acknowledged creates to wait for before the kill: enough that some are surely not in a snapshot yet. */
const ACKS_BEFORE_KILL = 120;

let dir: string;
const children = new Set<ChildProcess>();
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-sandbox-durability-'));
});
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

interface Cli {
  child: ChildProcess;
  exited: Promise<number | null>;
  ready: Promise<string>;
  output: () => string;
}

function cli(file: string): Cli {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli.ts', '--port', '0', '--rate-limit', 'off', '--data', file],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.add(child);
  let out = '';
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  const ready = new Promise<string>((resolve, reject) => {
    const check = () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m && out.includes('Ctrl+C to stop.')) resolve(m[1]!);
    };
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      check();
    });
    child.stderr!.on('data', (c: Buffer) => {
      out += c.toString();
    });
    void exited.then(() => reject(new Error(`x-sandbox exited before it was ready:\n${out}`)));
  });
  // A run that is expected to fail is never awaited for readiness.
  ready.catch(() => {});
  return { child, exited, ready, output: () => out };
}

async function createCustomer(url: string, email: string): Promise<{ status: number; id?: number }> {
  const res = await fetch(`${url}/wp-json/wc/v3/customers`, {
    method: 'POST',
    headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  const body = (await res.json()) as { id?: number };
  return { status: res.status, id: body.id };
}

describe('--data across kill -9', () => {
  it('keeps every acknowledged create, never hands an id out twice, and leaves no temp file', async () => {
    const file = join(dir, 'crash', 'store.json');
    const first = cli(file);
    const url = await first.ready;
    const acked = new Map<number, string>();
    let killed = false;
    let n = 0;
    const writer = async (w: number) => {
      while (!killed) {
        const email = `w${w}-${n++}@example.com`;
        let res: { status: number; id?: number };
        try {
          res = await createCustomer(url, email);
        } catch {
          return; // the server is gone
        }
        expect(res.status).toBe(201);
        acked.set(res.id!, email);
        if (acked.size >= ACKS_BEFORE_KILL && !killed) {
          // Mid-burst: the other writers still have requests in flight.
          killed = true;
          first.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    await first.exited;
    expect(acked.size).toBeGreaterThanOrEqual(ACKS_BEFORE_KILL);
    // A temp file from an earlier crash (a compaction cut short) is cleaned up at start.
    await writeFile(`${file}.4242.deadbeef.tmp`, '{"partial":');

    const second = cli(file);
    const url2 = await second.ready;
    const missing: number[] = [];
    for (const [id, email] of acked) {
      const res = await fetch(`${url2}/wp-json/wc/v3/customers/${id}`, { headers: { Authorization: AUTH } });
      const body = (await res.json()) as { email?: string };
      if (res.status !== 200 || body.email !== email) missing.push(id);
    }
    expect(missing).toEqual([]);
    const maxAcked = Math.max(...acked.keys());
    const next = await createCustomer(url2, 'after-restart@example.com');
    expect(next.status).toBe(201);
    expect(next.id).toBeGreaterThan(maxAcked);
    expect((await readdir(join(dir, 'crash'))).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    const third = cli(file);
    const url3 = await third.ready;
    const kept = await fetch(`${url3}/wp-json/wc/v3/customers/${next.id}`, {
      headers: { Authorization: AUTH },
    });
    expect(kept.status).toBe(200);
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
  });

  it('refuses a corrupt data file at start, naming the file and the fault', async () => {
    const file = join(dir, 'corrupt.json');
    await writeFile(
      file,
      JSON.stringify({ format: 'x-sandbox-store', version: 1, seq: {}, customers: [null] }),
    );
    const run = cli(file);
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain(`cannot load ${file}: customers[0] is not a record with a numeric id`);
    expect(run.output()).not.toContain('Cannot read properties');
  });
});

describe('data files the store refuses', () => {
  const start = (file: string) => startSandbox({ port: 0, dataFile: file });

  it.each([
    ['an empty file', '', 'the file is empty'],
    ['not JSON', '{"format":', 'not valid JSON'],
    ['another format', '{"format":"other"}', 'not an x-sandbox store data file'],
    [
      'a record that is not one',
      '{"format":"x-sandbox-store","version":1,"orders":[{"id":"7"}]}',
      'orders[0] is not a record with a numeric id',
    ],
    [
      'a broken sequence',
      '{"format":"x-sandbox-store","version":1,"seq":{"post":-1}}',
      '"seq.post" is not a count',
    ],
    [
      'a repeated id',
      '{"format":"x-sandbox-store","version":1,"notes":[{"id":3},{"id":3}]}',
      'notes[1] repeats id 3',
    ],
  ])('%s', async (_name, text, detail) => {
    const file = join(dir, `refused-${Math.random().toString(36).slice(2)}.json`);
    await writeFile(file, text);
    await expect(start(file)).rejects.toThrow(`cannot load ${file}: ${detail}`);
  });

  it('a journal line that is not a record (not the torn last one), naming the journal and the line', async () => {
    const file = join(dir, 'journal-bad.json');
    const first = await start(file);
    await first.close();
    await writeFile(
      `${file}.journal`,
      '{"seq":1,"entry":{"seq":{}}}\nnot json\n{"seq":3,"entry":{"seq":{}}}\n',
    );
    await expect(start(file)).rejects.toThrow(`cannot load ${file}.journal: line 2 is not JSON`);
    await writeFile(`${file}.journal`, '{"seq":1,"entry":{"put":{"orders":[{"id":1}]}}}\n');
    await expect(start(file)).rejects.toThrow(
      `cannot load ${file}.journal: line 1: the entry has no id sequences`,
    );
  });

  it('a journal without its data file', async () => {
    const file = join(dir, 'orphan.json');
    await writeFile(`${file}.journal`, '{"seq":1,"entry":{"seq":{}}}\n');
    await expect(start(file)).rejects.toThrow(
      `cannot load ${file}.journal: it has entries but ${file} is missing`,
    );
  });
});
