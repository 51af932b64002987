/**
 * The like-for-like call comparison of the service benchmarks (issue 21: each x-sdk client against its
 * official SDK and raw `fetch`, in the same run). Each call runs N times one at a time and N times at a
 * concurrency, in rounds that take turns at going first; a round's figures are the client process's CPU
 * (`process.cpuUsage()`, user + system, GC threads included) and the wall time, each divided by N. The
 * server under test must run in another process, so its CPU is not counted. Figures are medians of the
 * rounds; the spread says how far to trust them on a shared machine.
 *
 * Like `fuzz.shared.ts`, it imports no package: each bench brings its own clients and servers. Knobs,
 * medians, the machine line and the results file are in `bench.tools.ts`.
 */
import { drive, median } from './bench.tools.js';

export type CallRole = 'x-sdk' | 'official' | 'floor';

export interface CallVariant {
  key: string;
  label: string;
  /** The x-sdk client is judged against the `official` one of its group; `floor` is for information. */
  role: CallRole;
  /** One call; resolves a fingerprint of the answer (an id, a count) so every variant provably did the work. */
  call: () => Promise<unknown>;
}

export interface CallGroup {
  /** e.g. `products.get`. */
  name: string;
  /** Calls per measurement. */
  n: number;
  /** The fingerprint every variant's call must resolve. */
  expect: unknown;
  variants: CallVariant[];
}

export interface CallSettings {
  rounds: number;
  concurrency: number;
  /** Calls per variant and mode before measuring (code paths, sockets, JIT). */
  warmup: number;
}

export interface CallRow {
  group: string;
  key: string;
  label: string;
  role: CallRole;
  mode: string;
  n: number;
  cpuUsPerCall: number;
  wallUsPerCall: number;
  /** Half the range of the rounds' CPU per call, over the median. */
  cpuSpread: number;
  /** This row over the group's official SDK in the same mode; NaN when the group has none. */
  cpuVsOfficial: number;
  wallVsOfficial: number;
  samples: Array<{ cpuUsPerCall: number; wallUsPerCall: number }>;
}

/**
 * Measures every variant of every group in both modes; throws if a variant answers differently.
 * `BENCH_ONLY=x-store,official` keeps those variant keys (e.g. one client under `--cpu-prof`).
 */
export async function compareCalls(groups: CallGroup[], settings: CallSettings): Promise<CallRow[]> {
  const only = process.env.BENCH_ONLY?.split(',').filter(Boolean);
  if (only) groups = groups.map((g) => ({ ...g, variants: g.variants.filter((v) => only.includes(v.key)) }));
  const modes = [
    { name: 'sequential', concurrency: 1 },
    { name: `conc ${settings.concurrency}`, concurrency: settings.concurrency },
  ];
  const rows: CallRow[] = [];
  for (const group of groups) {
    for (const variant of group.variants) {
      const got = await variant.call();
      if (JSON.stringify(got) !== JSON.stringify(group.expect))
        throw new Error(
          `${group.name} ${variant.key}: answered ${JSON.stringify(got)}, not ${JSON.stringify(group.expect)}`,
        );
      for (const mode of modes) await drive(variant.call, settings.warmup, mode.concurrency);
    }
    const samples = new Map<string, CallRow['samples']>();
    for (let round = 0; round < settings.rounds; round++) {
      // Rotated each round and reversed every other, so no variant always runs first or last.
      const rotated = group.variants.map((_, i) => group.variants[(i + round) % group.variants.length]!);
      const order = round % 2 ? rotated.reverse() : rotated;
      for (const mode of modes) {
        for (const variant of order) {
          (globalThis as { gc?: () => void }).gc?.();
          const cpuBefore = process.cpuUsage();
          const t0 = performance.now();
          await drive(variant.call, group.n, mode.concurrency);
          const wallUs = (performance.now() - t0) * 1000;
          const cpu = process.cpuUsage(cpuBefore);
          const key = `${variant.key}/${mode.name}`;
          samples.set(key, [
            ...(samples.get(key) ?? []),
            { cpuUsPerCall: (cpu.user + cpu.system) / group.n, wallUsPerCall: wallUs / group.n },
          ]);
        }
      }
      process.stderr.write(`${group.name}: round ${round + 1}/${settings.rounds} done\n`);
    }
    for (const mode of modes) {
      const groupRows = group.variants.map((variant) => {
        const list = samples.get(`${variant.key}/${mode.name}`)!;
        const cpus = list.map((s) => s.cpuUsPerCall);
        const cpuUsPerCall = median(cpus);
        return {
          group: group.name,
          key: variant.key,
          label: variant.label,
          role: variant.role,
          mode: mode.name,
          n: group.n,
          cpuUsPerCall,
          wallUsPerCall: median(list.map((s) => s.wallUsPerCall)),
          cpuSpread: (Math.max(...cpus) - Math.min(...cpus)) / 2 / cpuUsPerCall,
          cpuVsOfficial: Number.NaN,
          wallVsOfficial: Number.NaN,
          samples: list,
        };
      });
      const official = groupRows.find((row) => row.role === 'official');
      for (const row of groupRows) {
        row.cpuVsOfficial = row.cpuUsPerCall / (official?.cpuUsPerCall ?? Number.NaN);
        row.wallVsOfficial = row.wallUsPerCall / (official?.wallUsPerCall ?? Number.NaN);
      }
      rows.push(...groupRows);
    }
  }
  return rows;
}

const ratio = (value: number) => (Number.isNaN(value) ? '-' : `${value.toFixed(2)}x`);

/** The table: one line per call, mode and client, with the ratios to the official SDK. */
export function callTable(rows: CallRow[]): string {
  const header = [
    'call',
    'mode',
    'client',
    'CPU µs/call',
    'spread',
    'wall µs/call',
    'CPU vs official',
    'wall vs official',
  ];
  const cells = rows.map((row) => [
    row.group,
    row.mode,
    row.label,
    row.cpuUsPerCall.toFixed(0),
    `±${(row.cpuSpread * 100).toFixed(0)}%`,
    row.wallUsPerCall.toFixed(0),
    ratio(row.cpuVsOfficial),
    ratio(row.wallVsOfficial),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((line) => line[i]!.length)));
  const line = (line: string[]) =>
    line.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

/** One line per call and mode: the goal is x-sdk's CPU per call <= the official SDK's. */
export function callVerdicts(rows: CallRow[]): string[] {
  return rows
    .filter((row) => row.role === 'x-sdk' && !Number.isNaN(row.cpuVsOfficial))
    .map(
      (row) =>
        `${row.cpuVsOfficial <= 1 ? 'PASS' : 'FAIL'}: ${row.group} (${row.mode}) ${row.label} costs ` +
        `${ratio(row.cpuVsOfficial)} the official SDK's CPU per call (goal <= 1.00x), ${ratio(row.wallVsOfficial)} its wall time.`,
    );
}
