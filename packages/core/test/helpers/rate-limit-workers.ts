/**
 * Starts and stops limiter worker processes (test/fixtures/limiter-worker.ts) for the rate-limiter
 * tests and bench: each is a separate, cold Node process, as the processes sharing one API key's
 * quota would be.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { WorkerReply, WorkerRequest } from '../fixtures/limiter-worker.js';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));
const workerPath = fileURLToPath(new URL('../fixtures/limiter-worker.ts', import.meta.url));

export interface LimiterWorker {
  child: ChildProcess;
  /** Sends one request and resolves with its reply; rejects on `{ type: 'error' }` or when the worker died. */
  request(message: WorkerRequest): Promise<WorkerReply>;
}

/** Forks one worker (with Redis when `redisUrl` is given) and waits for its `ready`; replies are matched in order. */
export function startWorker(redisUrl?: string): Promise<LimiterWorker> {
  const env = { ...process.env };
  if (redisUrl) env.LIMITER_REDIS_URL = redisUrl;
  else delete env.LIMITER_REDIS_URL;
  const child = fork(workerPath, [], {
    cwd: packageDir,
    execArgv: ['--import', 'tsx'],
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting: { done(reply: WorkerReply): void; fail(error: Error): void }[] = [];
  let failure: Error | undefined;
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      failure = new Error(`limiter worker ${child.pid} exited with code ${code}`);
      reject(failure);
      for (const pending of waiting.splice(0)) pending.fail(failure);
    });
    child.on('message', (reply: WorkerReply) => {
      if (reply.type === 'ready') {
        resolve({
          child,
          request: (message) =>
            failure
              ? Promise.reject(failure)
              : new Promise((done, fail) => {
                  waiting.push({
                    done: (r) => (r.type === 'error' ? fail(new Error(r.message)) : done(r)),
                    fail,
                  });
                  child.send(message);
                }),
        });
      } else waiting.shift()?.done(reply);
    });
  });
}

/** Asks the worker to exit, and kills it if it has not after 3 s. */
export async function stopWorker(worker: LimiterWorker): Promise<void> {
  const { child } = worker;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.send({ type: 'exit' } satisfies WorkerRequest);
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}
