/**
 * Starts a throwaway `redis-server` on a free 127.0.0.1 port and waits until it answers PING. By
 * default nothing is persisted; `persistent` keeps an append-only file (fsync on every write) in a
 * temporary directory, so that the server can be killed and started again on the same port with the
 * same data, as a production Redis with persistence would come back. Missing `redis-server` is an
 * error, never a skip: install it (`apt-get install redis-server`) or point REDIS_SERVER_BIN at the
 * binary.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export interface RedisServerOptions {
  /** Keep the data across `stop()` and `start()` (append-only file, fsync always). */
  persistent?: boolean;
  /** `requirepass`: clients must authenticate with this password. */
  password?: string;
}

export interface RedisServer {
  readonly host: string;
  readonly port: number;
  /** `redis://127.0.0.1:<port>`, without the password. */
  readonly url: string;
  /**
   * Terminates the server: SIGTERM (then SIGKILL after 2 s), or `signal` at once, e.g. 'SIGKILL' for
   * a crash. Idempotent. The data directory stays for `start()`.
   */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Starts the stopped server again on the same port, with the same options (and data, if persistent). */
  start(): Promise<void>;
  /** Stops the server and deletes its data directory. Idempotent. */
  close(): Promise<void>;
}

export function findRedisServer(): string {
  const candidates = process.env.REDIS_SERVER_BIN
    ? [process.env.REDIS_SERVER_BIN]
    : [
        ...(process.env.PATH ?? '')
          .split(delimiter)
          .filter(Boolean)
          .map((dir) => join(dir, 'redis-server')),
        '/usr/bin/redis-server',
      ];
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  const looked = process.env.REDIS_SERVER_BIN
    ? `REDIS_SERVER_BIN=${process.env.REDIS_SERVER_BIN} is not an executable file`
    : 'looked in PATH and /usr/bin; set REDIS_SERVER_BIN to override';
  throw new Error(
    `redis-server was not found (${looked}). ` +
      'The Redis rate-limiter tests need a real server: install it, e.g. `sudo apt-get install -y redis-server`.',
  );
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function ping(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      // With `requirepass`, an unauthenticated PING is refused, which still means the server is up.
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG') || reply.startsWith('-NOAUTH'));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Runs redis-server on `port` until it answers PING; returns a function that stops it. */
async function run(bin: string, host: string, port: number, args: string[]) {
  const child = spawn(bin, ['--port', String(port), '--bind', host, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    await exited(child);
    clearTimeout(timer);
  };
  const startedAt = Date.now();
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`redis-server exited during startup (code ${child.exitCode}):\n${output}`);
    }
    if (await ping(host, port)) return stop;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stop();
  throw new Error(
    `redis-server did not answer PING on ${host}:${port} within ${Date.now() - startedAt} ms:\n${output}`,
  );
}

export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const bin = findRedisServer();
  const host = '127.0.0.1';
  const dir = options.persistent ? mkdtempSync(join(tmpdir(), 'x-sdk-redis-')) : undefined;
  const args = dir
    ? ['--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always']
    : ['--save', '', '--appendonly', 'no'];
  if (options.password) args.push('--requirepass', options.password);
  let lastError: unknown;
  // A port found free can be taken before redis binds it; try a few.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    let stop: Awaited<ReturnType<typeof run>>;
    try {
      stop = await run(bin, host, port, args);
    } catch (error) {
      lastError = error;
      continue;
    }
    const server: RedisServer = {
      host,
      port,
      url: `redis://${host}:${port}`,
      stop: (signal) => stop(signal),
      async start() {
        await stop();
        stop = await run(bin, host, port, args);
      },
      async close() {
        await stop();
        if (dir) rmSync(dir, { recursive: true, force: true });
      },
    };
    return server;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
  throw lastError;
}
