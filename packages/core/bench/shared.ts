/** What the core benchmarks share: env knobs, medians, and the results file with the machine it ran on. */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

/** A positive integer from the environment (or 0 where `zero` allows it), else the fallback. */
export function intEnv(name: string, fallback: number, { zero = false } = {}): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && (value > 0 || (zero && value === 0)) ? value : fallback;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Writes `bench/<name>` (git-ignored) with the date, Node, CPUs and load around the figures. */
export function writeResults(name: string, loadAtStart: number[], figures: Record<string, unknown>): string {
  const out = fileURLToPath(new URL(`./${name}`, import.meta.url));
  const machine = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    loadavg: { atStart: loadAtStart, atEnd: loadavg() },
  };
  writeFileSync(out, `${JSON.stringify({ ...machine, ...figures }, null, 2)}\n`);
  return out;
}

/** Runs `call` `n` times, `concurrency` at a time (each worker starts the next call when its last ends). */
export async function drive(call: () => Promise<unknown>, n: number, concurrency: number): Promise<void> {
  let started = 0;
  const worker = async () => {
    while (started < n) {
      started++;
      await call();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
