/**
 * The children of streaming.bench.ts: each client in its own Node (streaming-client.ts) with
 * NODE_EXTRA_CA_CERTS naming the sandbox's certificate, its `drop` requests done on the emulator, and the
 * CPU the emulator (this process and its recogniser processes) used while a client streamed.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Sandbox } from '@x/sandbox';
import { type Block, BYTES_PER_MS } from './streaming-audio.js';
import type { ClientJob, ClientResult, SessionPlan } from './streaming-client.js';
import { cpuSeconds } from './streaming-measure.js';

export type Box = Sandbox<false> & { transcription: NonNullable<Sandbox['transcription']> };

export interface Running {
  pid: number;
  result: Promise<ClientResult>;
  /** Lets the child exit, and waits until it has (reaped). */
  exit(): Promise<void>;
}

/** Forks a client with the job; a `drop` it asks for is done at once on the emulator. */
export function startClient(job: ClientJob, caPath: string, box: Box, timeoutMs: number): Running {
  const child = fork(fileURLToPath(new URL('./streaming-client.ts', import.meta.url)), [], {
    stdio: 'inherit',
    execArgv: process.execArgv,
    env: { ...process.env, NODE_EXTRA_CA_CERTS: caPath },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const result = new Promise<ClientResult>((resolve) => {
    const timer = setTimeout(() => resolve({ ok: false, error: `no result in ${timeoutMs} ms` }), timeoutMs);
    child.on('message', (message: ClientResult | { type: 'drop'; id?: string }) => {
      if ('type' in message) {
        if (message.id) box.transcription.streaming.dropSessions(message.id);
        return;
      }
      clearTimeout(timer);
      resolve(message);
    });
    void exited.then(() =>
      resolve({ ok: false, error: `client exited (${child.exitCode ?? child.signalCode})` }),
    );
  });
  child.send(job);
  return {
    pid: child.pid!,
    result,
    async exit() {
      if (child.exitCode === null && child.signalCode === null) {
        const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
        if (child.connected) child.send({ type: 'exit' });
        else child.kill('SIGKILL');
        await exited;
        clearTimeout(killer);
      }
    },
  };
}

export function sessionMs(plan: SessionPlan, blocks: readonly Block[]): number {
  return (
    plan.leadMs + plan.blocks.reduce((ms, b) => ms + blocks[b]!.bytes / BYTES_PER_MS, 0) - (plan.skipMs ?? 0)
  );
}

/** Runs jobs in parallel children; resolves with each result once every child has exited. */
export async function runClients(jobs: ClientJob[], caPath: string, box: Box): Promise<ClientResult[]> {
  const running = jobs.map((job) => {
    const longest = Math.max(...job.sessions.map((s) => sessionMs(s, job.blocks)));
    return startClient(job, caPath, box, longest + 60_000);
  });
  const results = await Promise.all(running.map((r) => r.result));
  await Promise.all(running.map((r) => r.exit()));
  return results;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs one job and measures the emulator's CPU seconds from before the fork until its sessions ended and
 * their recognisers were reaped (the client's own process is left out: it exits only afterwards).
 */
export async function runMeasured(
  job: ClientJob,
  caPath: string,
  box: Box,
): Promise<{ result: ClientResult; emulatorCpu: number }> {
  const cpuBefore = await cpuSeconds(new Set());
  const longest = Math.max(...job.sessions.map((s) => sessionMs(s, job.blocks)));
  const client = startClient(job, caPath, box, longest + 60_000);
  const result = await client.result;
  // The recognisers end with their sessions; once reaped, their CPU is in this process's cutime.
  for (let i = 0; i < 100 && box.transcription.streaming.sessions().length > 0; i++) await sleep(50);
  await sleep(300);
  const emulatorCpu = (await cpuSeconds(new Set([client.pid]))) - cpuBefore;
  await client.exit();
  return { result, emulatorCpu };
}
