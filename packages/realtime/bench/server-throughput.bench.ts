/**
 * Server SDK throughput and CPU: BENCH_THROUGHPUT_TRIGGERS single-channel triggers, issued in waves of
 * BENCH_THROUGHPUT_WAVE per tick (each wave fired in one synchronous loop, the next wave once it settled),
 * against the sandbox realtime emulator in its own process (sandbox-child.ts, HTTP rate limit off), by
 *
 *   (a) `@x/realtime` `RealtimeServer.trigger`, defaults but `rateLimit: false`: coalescing on, at most 16
 *       calls in flight (`concurrency`), 1000 queued;
 *   (b) the same with `coalesce: false`: one `POST /events` per trigger, 16 at a time;
 *   (c) the official `pusher` 5.3.4 SDK's `trigger`: one `POST /events` per trigger, all of a wave at once;
 *   (d) `fetch` signed by hand (servers.ts): the floor, one `POST /events` per trigger, all of a wave at once.
 *
 * Per client: triggers per second (wall time from the first trigger until the last promise settled), CPU per
 * trigger (`process.cpuUsage()` user + system of this process over the same span, divided by the triggers;
 * the emulator's CPU is in its own process and not counted), HTTP calls the emulator counted, and failures.
 * One warm-up run per client is not counted; then BENCH_ROUNDS rounds, the clients taking turns, each with
 * a fresh client; figures are medians over the rounds, with CPU and throughput as ratios to `pusher`.
 *
 * Then the like-for-like call (issue 21): the same four clients awaiting BENCH_CALLS_N triggers one at a
 * time and 16 at a time (bench.shared.ts, rounds taking turns), CPU and wall time per call, as ratios to
 * `pusher`; the goal is x-sdk's CPU per call <= the official SDK's.
 *
 *   pnpm --filter @x/realtime bench         (latency, coalescing, fan-out, then this file)
 *   pnpm --filter @x/realtime exec tsx bench/server-throughput.bench.ts
 *   BENCH_THROUGHPUT_TRIGGERS=2000 BENCH_CALLS_N=300 BENCH_ROUNDS=1 pnpm --filter @x/realtime exec tsx bench/server-throughput.bench.ts
 *
 * Env: BENCH_THROUGHPUT_TRIGGERS (default 5000), BENCH_THROUGHPUT_WAVE (default 500), BENCH_ROUNDS (default 3),
 * BENCH_CALLS_N (default 1000), BENCH_CONCURRENCY (default 16), BENCH_WARMUP (default 100).
 * Prints two tables; writes bench/results-server-throughput.json (not committed). A measurement: never fails the process.
 */
import { loadavg } from 'node:os';
import { type CallGroup, callTable, callVerdicts, compareCalls } from '../../../bench.shared.js';
import { fmt, intEnv, machineLine, median, tableLine, writeResults } from '../../../bench.tools.js';
import type { SandboxCounts, SandboxReady } from './sandbox-child.js';
import { sandboxFetchTrigger, sandboxPusher, sandboxServer } from './servers.js';
import { nowMs, startChild } from './shared.js';

const TRIGGERS = intEnv('BENCH_THROUGHPUT_TRIGGERS', 5000);
const WAVE = intEnv('BENCH_THROUGHPUT_WAVE', 500);
const ROUNDS = intEnv('BENCH_ROUNDS', 3);
const CALLS_N = intEnv('BENCH_CALLS_N', 1000);
const CONCURRENCY = intEnv('BENCH_CONCURRENCY', 16);
const WARMUP = intEnv('BENCH_WARMUP', 100);

type Trigger = (channel: string, i: number) => Promise<unknown>;

interface Contender {
  key: string;
  label: string;
  role: 'x-sdk' | 'official' | 'floor';
  create(rt: SandboxReady): Trigger;
}

const CONTENDERS: Contender[] = [
  {
    key: 'x-coalesce-on',
    label: '@x/realtime (coalesce on)',
    role: 'x-sdk',
    create(rt) {
      const s = sandboxServer(rt, { rateLimit: false, coalesce: true });
      return (channel, i) => s.trigger(channel, 'bench', { i });
    },
  },
  {
    key: 'x-coalesce-off',
    label: '@x/realtime (coalesce off)',
    role: 'x-sdk',
    create(rt) {
      const s = sandboxServer(rt, { rateLimit: false, coalesce: false });
      return (channel, i) => s.trigger(channel, 'bench', { i });
    },
  },
  {
    key: 'pusher',
    label: 'pusher 5.3.4',
    role: 'official',
    create(rt) {
      const s = sandboxPusher(rt);
      return (channel, i) => s.trigger(channel, 'bench', { i });
    },
  },
  {
    key: 'fetch',
    label: 'fetch, signed by hand',
    role: 'floor',
    create(rt) {
      const trigger = sandboxFetchTrigger(rt);
      return (channel, i) => trigger(channel, 'bench', { i });
    },
  },
];

/** The like-for-like call: each client's trigger awaited, one at a time and at a concurrency. */
async function perCall(rt: SandboxReady) {
  let channelNo = 0;
  const group: CallGroup = {
    name: 'trigger',
    n: CALLS_N,
    expect: 'ok',
    variants: CONTENDERS.map((contender) => {
      const trigger = contender.create(rt);
      const channel = `bench-call-${channelNo++}`;
      let i = 0;
      return { ...contender, call: () => trigger(channel, i++).then(() => 'ok') };
    }),
  };
  const rows = await compareCalls([group], { rounds: ROUNDS, concurrency: CONCURRENCY, warmup: WARMUP });
  console.log(
    `\nper call: ${CALLS_N} triggers awaited one at a time, then ${CONCURRENCY} at a time, ${ROUNDS} rounds (medians)\n`,
  );
  console.log(callTable(rows));
  const verdicts = callVerdicts(rows);
  console.log(`\n${verdicts.join('\n')}`);
  return { rows, verdicts };
}

interface Round {
  triggersPerSecond: number;
  cpuUsPerTrigger: number;
  httpCalls: number;
  failed: number;
  firstError?: string;
}

async function main(): Promise<void> {
  const loadAtStart = loadavg();
  const sandbox = await startChild<SandboxReady>('sandbox-child.ts', {
    BENCH_SANDBOX_OPTIONS: JSON.stringify({ httpRateLimit: false }),
  });
  const rt = sandbox.ready;
  try {
    console.log(`\nrealtime server SDK throughput — ${machineLine(loadAtStart)}`);
    console.log(`${TRIGGERS} triggers in waves of ${WAVE}, ${ROUNDS} rounds (medians)\n`);
    let channelNo = 0;
    const round = async (trigger: Trigger): Promise<Round> => {
      const channel = `bench-throughput-${channelNo++}`;
      await sandbox.call('resetStats');
      let failed = 0;
      let firstError: string | undefined;
      const cpu0 = process.cpuUsage();
      const t0 = nowMs();
      for (let start = 0; start < TRIGGERS; start += WAVE) {
        const wave: Promise<unknown>[] = [];
        for (let i = start; i < Math.min(TRIGGERS, start + WAVE); i++) wave.push(trigger(channel, i));
        for (const outcome of await Promise.allSettled(wave)) {
          if (outcome.status === 'fulfilled') continue;
          failed++;
          firstError ??= outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason);
        }
      }
      const wallMs = nowMs() - t0;
      const cpu = process.cpuUsage(cpu0);
      const counts = await sandbox.call<SandboxCounts>('stats');
      return {
        triggersPerSecond: (TRIGGERS / wallMs) * 1000,
        cpuUsPerTrigger: (cpu.user + cpu.system) / TRIGGERS,
        httpCalls: counts.requests,
        failed,
        ...(firstError ? { firstError } : {}),
      };
    };

    const triggers = CONTENDERS.map((c) => c.create(rt));
    for (const trigger of triggers) await round(trigger); // warm-up, not counted
    const results: Record<string, Round[]> = Object.fromEntries(CONTENDERS.map((c) => [c.key, []]));
    for (let r = 0; r < ROUNDS; r++) {
      for (const [i, contender] of CONTENDERS.entries()) {
        results[contender.key]!.push(await round(CONTENDERS[i]!.create(rt)));
      }
    }

    const w = [30, 14, 16, 12, 9, 14, 16];
    console.log(
      tableLine(w, [
        'client',
        'triggers/s',
        'CPU µs/trigger',
        'HTTP calls',
        'failed',
        'CPU vs pusher',
        'rate vs pusher',
      ]),
    );
    const medianOf = (key: string, pick: (r: Round) => number) => median(results[key]!.map(pick));
    const pusherCpu = medianOf('pusher', (r) => r.cpuUsPerTrigger);
    const pusherRate = medianOf('pusher', (r) => r.triggersPerSecond);
    const summary = CONTENDERS.map(({ key, label }) => {
      const rounds = results[key]!;
      const row = {
        key,
        label,
        triggersPerSecond: median(rounds.map((r) => r.triggersPerSecond)),
        cpuUsPerTrigger: median(rounds.map((r) => r.cpuUsPerTrigger)),
        httpCalls: Math.max(...rounds.map((r) => r.httpCalls)),
        failed: Math.max(...rounds.map((r) => r.failed)),
      };
      console.log(
        tableLine(w, [
          label,
          fmt(row.triggersPerSecond, 0),
          fmt(row.cpuUsPerTrigger, 1),
          String(row.httpCalls),
          String(row.failed),
          `${fmt(row.cpuUsPerTrigger / pusherCpu)}x`,
          `${fmt(row.triggersPerSecond / pusherRate)}x`,
        ]),
      );
      const error = rounds.find((r) => r.firstError)?.firstError;
      if (error) console.log(`  ${label}: e.g. ${error}`);
      return row;
    });
    const calls = await perCall(rt);
    const out = writeResults(new URL('./results-server-throughput.json', import.meta.url), loadAtStart, {
      settings: { triggers: TRIGGERS, wave: WAVE, rounds: ROUNDS, callsN: CALLS_N, concurrency: CONCURRENCY },
      summary,
      rounds: results,
      perCall: calls,
    });
    console.log(
      `\nwrote ${out}; load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} at end`,
    );
  } finally {
    await sandbox.close().catch(() => {});
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 0;
});
