/** What the transcription benchmarks share: env knobs, table lines, and the results file with the machine. */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

export const MiB = 2 ** 20;

/** A positive integer from the environment, else the fallback. */
export function intEnv(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

/** One table line: the first column left-aligned, the others right-aligned, to the given widths. */
export function tableLine(widths: readonly number[], cells: readonly string[]): string {
  return cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('');
}

/** Node, CPUs and load, for the header line. */
export function machineLine(loadAtStart: readonly number[]): string {
  return `Node ${process.version}, ${cpus().length} CPUs, load ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at start`;
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
