/**
 * What every package's benchmarks share: knobs from the environment, medians and percentiles, table lines,
 * the machine a figure came from, the results file, and running a call n times k at a time. The call
 * comparison of the service benches is `bench.shared.ts`, built on these.
 *
 * Like `bench.shared.ts` and `fuzz.shared.ts`, it imports no package: each bench brings its own clients.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

export const MiB = 2 ** 20;

/**
 * An integer knob from the environment: the fallback when unset or empty, else an integer >= `min` (1 unless
 * given). Anything else throws, naming the variable, so a typo never runs the bench at its defaults.
 */
export function intEnv(name: string, fallback: number, { min = 1 } = {}): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}`);
  return value;
}

/** The middle value (the mean of the two middle ones for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Nearest-rank percentile (p in 0..100) of unsorted values; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1]!;
}

/** A number for a table cell: `digits` decimals, `n/a` for NaN or none. */
export function fmt(value: number | undefined, digits = 2): string {
  return value !== undefined && Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

/** One table line: the first column left-aligned, the others right-aligned, to the given widths. */
export function tableLine(widths: readonly number[], cells: readonly string[]): string {
  return cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('');
}

/** The header line: Node, CPUs and the load average, which a shared machine needs next to any figure. */
export function machineLine(loadAtStart: readonly number[]): string {
  return `Node ${process.version}, ${cpus().length} CPUs, load ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at start, ${loadavg()[0]!.toFixed(2)} now`;
}

/**
 * Writes `file` (a bench's results, git-ignored: `new URL('./results.json', import.meta.url)`) with the
 * date, Node, CPUs and the load around the figures; returns its path.
 */
export function writeResults(
  file: URL,
  loadAtStart: readonly number[],
  figures: Record<string, unknown>,
): string {
  const out = fileURLToPath(file);
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
  await Promise.all(Array.from({ length: Math.min(n, concurrency) }, worker));
}
