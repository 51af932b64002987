/** The x-sandbox CLI as a user runs it: a real child process, its printed block, its exit codes. */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { STORE_DEV_KEYS, TRANSCRIPTION_DEV_KEY } from '../../src/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

function cli(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  return {
    child,
    exited,
    output: () => ({ stdout, stderr }),
    /** Resolves with stdout once the startup block has been printed. */
    ready: () =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no startup block in 20 s:\n${stdout}${stderr}`)),
          20_000,
        );
        const check = () => {
          if (stdout.includes('Ctrl+C to stop.')) {
            clearTimeout(timer);
            resolve(stdout);
          }
        };
        child.stdout.on('data', check);
        void exited.then(() => reject(new Error(`exited early:\n${stdout}${stderr}`)));
        check();
      }),
  };
}

function basic(ck: string, cs: string): string {
  return `Basic ${Buffer.from(`${ck}:${cs}`).toString('base64')}`;
}

const urlOf = (stdout: string) => /listening on (http:\/\/\S+)/.exec(stdout)![1]!;

describe('x-sandbox CLI', () => {
  it('starts with the fixed dev keys, prints them in a closing block, and stops cleanly on SIGTERM', async () => {
    const run = cli(['--port', '0']);
    const stdout = await run.ready();
    const dev = STORE_DEV_KEYS;
    expect(dev.read_write).toEqual({
      consumerKey: 'ck_sandbox_dev_read_write',
      consumerSecret: 'cs_sandbox_dev_read_write',
      permissions: 'read_write',
    });
    const block = stdout.slice(stdout.indexOf('====='));
    for (const k of [dev.read_write, dev.read, dev.write]) {
      expect(block).toContain(k.consumerKey);
      expect(block).toContain(k.consumerSecret);
    }
    expect(block).toContain('fixed dev keys');
    expect(stdout.trimEnd().endsWith('='.repeat(20))).toBe(true);
    const url = urlOf(stdout);
    const res = await fetch(`${url}/wp-json/wc/v3/products`, {
      headers: { Authorization: basic(dev.read_write.consumerKey, dev.read_write.consumerSecret) },
    });
    expect(res.status).toBe(200);
    const readOnly = await fetch(`${url}/wp-json/wc/v3/products`, {
      method: 'POST',
      headers: {
        Authorization: basic(dev.read.consumerKey, dev.read.consumerSecret),
        'Content-Type': 'application/json',
      },
      body: '{"name":"x"}',
    });
    expect(readOnly.status).toBe(401);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.output().stdout).toContain('SIGTERM: closing x-sandbox');
  });

  it('--random-keys prints fresh keys that work, and the dev keys do not', async () => {
    const run = cli(['--port', '0', '--random-keys']);
    const stdout = await run.ready();
    const ck = /consumer key\s+(ck_[0-9a-f]{40})/.exec(stdout)?.[1];
    const cs = /consumer secret\s+(cs_[0-9a-f]{40})/.exec(stdout)?.[1];
    expect(ck).toBeDefined();
    expect(cs).toBeDefined();
    expect(stdout).not.toContain('ck_sandbox_dev');
    const url = urlOf(stdout);
    const ok = await fetch(`${url}/wp-json/wc/v3/products`, { headers: { Authorization: basic(ck!, cs!) } });
    expect(ok.status).toBe(200);
    const dev = STORE_DEV_KEYS.read_write;
    const stale = await fetch(`${url}/wp-json/wc/v3/products`, {
      headers: { Authorization: basic(dev.consumerKey, dev.consumerSecret) },
    });
    expect(stale.status).toBe(401);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('--transcription starts the transcription emulator with the printed key and its own rate limit', async () => {
    const run = cli(['--port', '0', '--transcription', '--transcription-rate-limit', '2/60s']);
    const stdout = await run.ready();
    expect(stdout).toContain('x-sandbox transcription (AssemblyAI v2 REST)');
    const key = /API key\s+(\S+)/.exec(stdout)?.[1];
    expect(key).toBe(TRANSCRIPTION_DEV_KEY);
    const url = urlOf(stdout);
    const list = () => fetch(`${url}/v2/transcript`, { headers: { Authorization: key! } });
    expect((await list()).status).toBe(200);
    expect((await list()).headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await list()).status).toBe(429);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('refuses transcription flags without --transcription', async () => {
    const run = cli(['--port', '0', '--transcription-key', 'abc']);
    expect(await run.exited).toBe(1);
    expect(run.output().stderr).toContain(
      '--transcription-key configures the transcription emulator: add --transcription',
    );
  });

  it('applies a valid --rate-limit', async () => {
    const run = cli(['--port', '0', '--rate-limit', '2/60s']);
    const url = urlOf(await run.ready());
    const dev = STORE_DEV_KEYS.read_write;
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${url}/wp-json/wc/v3/products`, {
        headers: { Authorization: basic(dev.consumerKey, dev.consumerSecret) },
      });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it.each([
    [['--rate-limit', '0/1s'], '--rate-limit: "0/1s" limits nothing'],
    [['--rate-limit', '5/0s'], '--rate-limit: "5/0s" limits nothing'],
    [['--rate-limit', '5/0ms'], '--rate-limit: "5/0ms" limits nothing'],
    [['--rate-limit', 'lots'], '--rate-limit: expected N/Ws'],
    [['--batch-limit', '0'], '--batch-limit: expected a positive integer'],
    [['--port', '99999'], 'port'],
  ])('refuses %j and exits 1 without starting', async (args, message) => {
    const run = cli(['--port', '0', ...args]);
    expect(await run.exited).toBe(1);
    const { stdout, stderr } = run.output();
    expect(stderr).toContain(message);
    expect(stderr).toContain('Usage: x-sandbox');
    expect(stdout).not.toContain('listening on');
  });
});
