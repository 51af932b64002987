/**
 * What the realtime benchmarks share beyond the root `bench.tools.ts`: a clock comparable across processes,
 * and a small request/reply channel to child processes (the sandbox and the subscribers each run in their
 * own process, so none measures on another's event loop).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Milliseconds on the monotonic clock (`process.hrtime`, CLOCK_MONOTONIC on Linux): the same clock in every
 * process of the machine, so a send time stamped in one process can be subtracted from a receive time in another.
 */
export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 5 ms until it holds or `timeoutMs` passed; says which. */
export async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await sleep(5);
  }
  return true;
}

// --- child processes -------------------------------------------------------------------------------------

interface Request {
  id: number;
  type: string;
  args: unknown;
}
type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

/** A bench child: `call(type, args)` is answered by the handler of that name in the child (`serve`). */
export interface Child<Ready = unknown> {
  readonly process: ChildProcess;
  /** What the child sent when it was ready (`serve`'s first argument). */
  readonly ready: Ready;
  call<T = unknown>(type: string, args?: unknown, timeoutMs?: number): Promise<T>;
  /** Asks the child to exit (`close` handler), SIGKILLs it after 5 s. */
  close(): Promise<void>;
}

/**
 * Forks `./<file>` with this process's execArgv (tsx's loader) and `env` added; resolves once the child
 * reports ready. Children's stderr and stdout are inherited, so their failures show.
 */
export function startChild<Ready>(file: string, env: Record<string, string> = {}): Promise<Child<Ready>> {
  const child = fork(fileURLToPath(new URL(`./${file}`, import.meta.url)), [], {
    stdio: 'inherit',
    execArgv: process.execArgv,
    env: { ...process.env, ...env },
  });
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let nextId = 1;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', (code, signal) => {
    for (const w of waiting.values()) w.reject(new Error(`${file} exited (${code ?? signal})`));
    waiting.clear();
  });
  return new Promise((resolve, reject) => {
    const failed = (code: number | null) => reject(new Error(`${file} exited (${code}) before it was ready`));
    child.once('exit', failed);
    child.on('message', (message: { ready?: unknown } | Reply) => {
      if ('ready' in message) {
        child.off('exit', failed);
        resolve(handle(message.ready as Ready));
        return;
      }
      const reply = message as Reply;
      const w = waiting.get(reply.id);
      if (!w) return;
      waiting.delete(reply.id);
      if (reply.ok) w.resolve(reply.value);
      else w.reject(new Error(`${file}: ${reply.error}`));
    });
  });

  function handle(ready: Ready): Child<Ready> {
    return {
      process: child,
      ready,
      call<T>(type: string, args?: unknown, timeoutMs = 120_000): Promise<T> {
        const id = nextId++;
        return new Promise<T>((resolve, reject) => {
          const timer = setTimeout(() => {
            waiting.delete(id);
            reject(new Error(`${file}: ${type} got no answer in ${timeoutMs} ms`));
          }, timeoutMs);
          waiting.set(id, {
            resolve: (v) => {
              clearTimeout(timer);
              resolve(v as T);
            },
            reject: (e) => {
              clearTimeout(timer);
              reject(e);
            },
          });
          child.send({ id, type, args } satisfies Request);
        });
      },
      async close() {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.send({ id: 0, type: 'close', args: undefined } satisfies Request);
        await exited;
        clearTimeout(killer);
      },
    };
  }
}

export type Handlers = Record<string, (args: any) => unknown>;

/**
 * The child side: answers the parent's calls with `handlers` (a `close` call exits after its handler), then
 * tells the parent it is ready with `ready`. A handler may return `{ [AFTER_REPLY]: fn, value }` to run `fn`
 * once the reply has left (used to block the loop only after the parent heard that it will be blocked).
 */
export const AFTER_REPLY = Symbol('afterReply');

export function serve(ready: unknown, handlers: Handlers): void {
  process.on('message', async (request: Request) => {
    let reply: Reply;
    let after: (() => void) | undefined;
    try {
      let value = await handlers[request.type]?.(request.args);
      if (value && typeof value === 'object' && AFTER_REPLY in value) {
        after = (value as { [AFTER_REPLY]: () => void })[AFTER_REPLY];
        value = (value as { value?: unknown }).value;
      }
      reply = { id: request.id, ok: true, value: value ?? null };
    } catch (error) {
      reply = { id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    if (request.type === 'close') {
      process.disconnect();
      process.exit(0);
    }
    process.send!(reply, undefined, {}, () => after?.());
  });
  process.send!({ ready });
}
