/** The x-sandbox CLI as a user runs it: a real child process, its printed block, its exit codes. */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import Pusher from 'pusher';
import { afterAll, describe, expect, it } from 'vitest';
import { REALTIME_DEV_APP, STORE_DEV_KEYS, TRANSCRIPTION_DEV_KEY } from '../../src/index.js';
import { TestSocket } from '../helpers/realtime.js';

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

const urlOf = (stdout: string) => /listening on (https?:\/\/\S+)/.exec(stdout)![1]!;

/** The option objects the banner prints for @x/realtime, evaluated as a reader pasting them would. */
function realtimeOptions(stdout: string) {
  const client = /^ {2}@x\/realtime {7}new RealtimeClient\('([^']+)', (\{.*\})\)$/m.exec(stdout);
  const server = /^ {2}@x\/realtime\/server new RealtimeServer\((\{.*\})\)$/m.exec(stdout);
  expect(client, stdout).not.toBeNull();
  expect(server, stdout).not.toBeNull();
  return {
    key: client![1]!,
    client: new Function(`return ${client![2]}`)() as Record<string, unknown>,
    server: new Function(`return ${server![1]}`)() as Record<string, unknown>,
  };
}

/** Option names an interface of @x/realtime's source declares (the sandbox imports no SDK to ask its types). */
async function declaredOptions(file: string, name: string): Promise<string[]> {
  const source = await readFile(`${root}../realtime/src/${file}`, 'utf8');
  const body = new RegExp(`export interface ${name}\\b[^{]*\\{([\\s\\S]*?)\\n\\}`).exec(source)?.[1] ?? '';
  return [...body.matchAll(/^ {2}(\w+)\??:/gm)].map((m) => m[1]!);
}

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

  it('--realtime prints @x/realtime options that the SDK declares and that reach the emulator', async () => {
    const run = cli(['--port', '0', '--realtime']);
    const stdout = await run.ready();
    const port = Number(new URL(urlOf(stdout)).port);
    const { key, client, server } = realtimeOptions(stdout);
    const app = REALTIME_DEV_APP;
    expect(key).toBe(app.key);
    expect(client).toEqual({ wsHost: '127.0.0.1', wsPort: port, forceTLS: false });
    expect(server).toEqual({ ...app, host: '127.0.0.1', port, useTLS: false });
    const clientNames = await declaredOptions('client/options.ts', 'RealtimeClientOptions');
    const serverNames = await declaredOptions('server/client.ts', 'RealtimeServerOptions');
    for (const name of Object.keys(client)) expect(clientNames).toContain(name);
    for (const name of Object.keys(server)) expect(serverNames).toContain(name);
    // The values work: the official server SDK (same option names) signs a trigger the emulator takes, and
    // a socket opened where the client options point is welcomed.
    const response = await new Pusher(server as unknown as Pusher.Options).trigger('orders', 'created', {
      id: 1,
    });
    expect(response.status).toBe(200);
    const socket = new TestSocket(`ws://${client.wsHost}:${client.wsPort}/app/${key}?protocol=7`);
    await expect(socket.next('pusher:connection_established', 5000)).resolves.toBeTruthy();
    socket.close();
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('--https --realtime prints the TLS forms: wssPort with forceTLS, useTLS', async () => {
    const run = cli(['--port', '0', '--https', '--realtime']);
    const stdout = await run.ready();
    const port = Number(new URL(urlOf(stdout)).port);
    const { client, server } = realtimeOptions(stdout);
    expect(client).toEqual({ wsHost: '127.0.0.1', wssPort: port, forceTLS: true });
    expect(server).toMatchObject({ host: '127.0.0.1', port, useTLS: true });
    expect(stdout).toContain(`pusher-js         wsHost: '127.0.0.1', wssPort: ${port}, forceTLS: true`);
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
