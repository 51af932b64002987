/**
 * Starts a throwaway `redis-server` (no persistence) on a free 127.0.0.1 port and waits until it
 * answers PING. Missing `redis-server` is an error, never a skip: install it (`apt-get install
 * redis-server`) or point REDIS_SERVER_BIN at the binary.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { delimiter, join } from 'node:path';

export interface RedisServer {
  readonly host: string;
  readonly port: number;
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  /** Terminates the server (SIGTERM, then SIGKILL after 2 s). Idempotent. */
  stop(): Promise<void>;
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
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function startOnce(bin: string, host: string): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn(bin, ['--port', String(port), '--bind', host, '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    await exited(child);
    clearTimeout(timer);
  };
  const startedAt = Date.now();
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`redis-server exited during startup (code ${child.exitCode}):\n${output}`);
    }
    if (await ping(host, port)) return { host, port, url: `redis://${host}:${port}`, stop };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stop();
  throw new Error(
    `redis-server did not answer PING on ${host}:${port} within ${Date.now() - startedAt} ms:\n${output}`,
  );
}

export async function startRedisServer(): Promise<RedisServer> {
  const bin = findRedisServer();
  let lastError: unknown;
  // A port found free can be taken before redis binds it; try a few.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(bin, '127.0.0.1');
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
