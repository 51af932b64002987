/**
 * HTTP calls saved by trigger coalescing: BENCH_COALESCE_TRIGGERS single-channel triggers issued in the
 * same tick (one synchronous loop, then `Promise.allSettled`) against the sandbox realtime emulator, by
 *
 *   (a) `@x/realtime` `RealtimeServer.trigger`, coalesce on (default): same-tick triggers leave as
 *       `batch_events` calls of 10, one after another;
 *   (b) the same with `coalesce: false`: one `POST /events` each, all at once;
 *   (c) the official `pusher` 5.3.4 SDK's `trigger`, one `POST /events` each, all at once;
 *   (d) (a) with the client's default rate limit (100 requests/s) instead of `rateLimit: false`, which
 *       (a)-(c) use so that the wall time is the HTTP work's.
 *
 * Per client: HTTP calls the emulator counted (its `stats()`, zeroed before each round), wall time until
 * every trigger promise settled and until the subscriber had every event, and a check that a raw `ws`
 * subscriber (its own process, subscriber-child.ts) received every event exactly once, and whether in the
 * order triggered. The emulator runs in its own process (sandbox-child.ts) with its HTTP rate limit off,
 * so no call is refused. One full-size warm-up round per client is not counted; then BENCH_ROUNDS rounds,
 * the clients taking turns, each round with a fresh client and a fresh channel; wall times are medians over
 * the rounds, calls and checks the worst round's.
 *
 *   pnpm --filter @x/realtime bench                       (latency, then this file, then fan-out)
 *   pnpm --filter @x/realtime exec tsx bench/coalescing.bench.ts
 *   BENCH_COALESCE_TRIGGERS=100 BENCH_ROUNDS=1 pnpm --filter @x/realtime exec tsx bench/coalescing.bench.ts
 *
 * Env: BENCH_COALESCE_TRIGGERS (default 1000), BENCH_ROUNDS (default 3), BENCH_TIMEOUT_S (per round, default 60).
 * Prints a table; writes bench/results-coalescing.json (not committed). A measurement: never fails the process.
 */
import { loadavg } from 'node:os';
import { fmt, intEnv, machineLine, median, tableLine, writeResults } from '../../../bench.tools.js';
import type { SandboxCounts, SandboxReady } from './sandbox-child.js';
import { sandboxPusher, sandboxServer } from './servers.js';
import { nowMs, sleep, startChild } from './shared.js';
import type { Collected } from './subscriber-child.js';

const TRIGGERS = intEnv('BENCH_COALESCE_TRIGGERS', 1000);
const ROUNDS = intEnv('BENCH_ROUNDS', 3);
const TIMEOUT_MS = intEnv('BENCH_TIMEOUT_S', 60) * 1000;

type Trigger = (channel: string, i: number) => Promise<unknown>;

interface Contender {
  key: string;
  label: string;
  create(rt: SandboxReady): Trigger;
}

const CONTENDERS: Contender[] = [
  {
    key: 'x-coalesce-on',
    label: '@x/realtime coalesce on',
    create(rt) {
      const s = sandboxServer(rt, { coalesce: true, rateLimit: false });
      return (channel, i) => s.trigger(channel, 'bench', { i, t: 0 });
    },
  },
  {
    key: 'x-coalesce-off',
    label: '@x/realtime coalesce off',
    create(rt) {
      const s = sandboxServer(rt, { coalesce: false, rateLimit: false });
      return (channel, i) => s.trigger(channel, 'bench', { i, t: 0 });
    },
  },
  {
    key: 'pusher',
    label: 'pusher 5.3.4 trigger',
    create(rt) {
      const s = sandboxPusher(rt);
      return (channel, i) => s.trigger(channel, 'bench', { i, t: 0 });
    },
  },
  {
    key: 'x-coalesce-on-default-limit',
    label: '@x/realtime on, 100 req/s',
    create(rt) {
      const s = sandboxServer(rt, { coalesce: true });
      return (channel, i) => s.trigger(channel, 'bench', { i, t: 0 });
    },
  },
];

interface Round {
  httpCalls: number;
  rateLimited: number;
  failed: number;
  firstError?: string;
  settledMs: number;
  allReceivedMs: number;
  received: number;
  duplicates: number;
  outOfOrder: number;
}

async function main(): Promise<void> {
  const loadAtStart = loadavg();
  const sandbox = await startChild<SandboxReady>('sandbox-child.ts', {
    BENCH_SANDBOX_OPTIONS: JSON.stringify({ httpRateLimit: false }),
  });
  const rt = sandbox.ready;
  const subscriber = await startChild('subscriber-child.ts', { BENCH_SUBSCRIBER: 'ws' });
  try {
    await subscriber.call('connect', { wsUrl: rt.wsUrl, key: rt.key });
    console.log(`\nrealtime trigger coalescing — ${machineLine(loadAtStart)}`);

    let channelNo = 0;
    const round = async (trigger: Trigger, count: number): Promise<Round> => {
      const channel = `bench-coalesce-${channelNo++}`;
      await subscriber.call('subscribe', { channel });
      await subscriber.call('record', { channel, expected: count });
      await sandbox.call('resetStats');
      let failed = 0;
      let firstError: string | undefined;
      const t0 = nowMs();
      const promises: Promise<unknown>[] = [];
      for (let i = 0; i < count; i++) promises.push(trigger(channel, i));
      const outcomes = await Promise.allSettled(promises);
      const settledMs = nowMs() - t0;
      for (const o of outcomes) {
        if (o.status === 'rejected') {
          failed += 1;
          firstError ??= o.reason instanceof Error ? o.reason.message : String(o.reason);
        }
      }
      const got = await subscriber.call<Collected>(
        'collect',
        { channel, timeoutMs: failed ? 1000 : TIMEOUT_MS },
        TIMEOUT_MS + 10_000,
      );
      // Late duplicates would land after the last expected event: give them a moment, then read the counts.
      await sleep(100);
      const stats = await sandbox.call<SandboxCounts>('stats');
      return {
        httpCalls: stats.requests,
        rateLimited: stats.rateLimited,
        failed,
        ...(firstError === undefined ? {} : { firstError }),
        settledMs,
        allReceivedMs: got.received === count ? got.last - t0 : Number.NaN,
        received: got.received,
        duplicates: got.duplicates,
        outOfOrder: got.outOfOrder,
      };
    };

    // Warm-up (every client, full size, not counted), then the rounds interleaved, so no client is
    // measured against a colder emulator than another.
    for (const c of CONTENDERS) await round(c.create(rt), TRIGGERS);
    const results = CONTENDERS.map((c) => ({ key: c.key, label: c.label, rounds: [] as Round[] }));
    for (let r = 0; r < ROUNDS; r++) {
      for (const [k, c] of CONTENDERS.entries()) results[k]!.rounds.push(await round(c.create(rt), TRIGGERS));
    }

    const w = [28, 11, 10, 12, 14, 12, 10, 9];
    console.log(
      `\n${TRIGGERS} single-channel triggers in one tick, ${ROUNDS} rounds (median wall times; calls and checks: worst round)`,
    );
    console.log(
      tableLine(w, [
        'client',
        'HTTP calls',
        'ev/call',
        'settled ms',
        'all recv ms',
        'recv once',
        'dup',
        'in order',
      ]),
    );
    const summary = results.map(({ key, label, rounds }) => {
      const calls = Math.max(...rounds.map((r) => r.httpCalls));
      const received = Math.min(...rounds.map((r) => r.received));
      const duplicates = Math.max(...rounds.map((r) => r.duplicates));
      const outOfOrder = Math.max(...rounds.map((r) => r.outOfOrder));
      const failed = Math.max(...rounds.map((r) => r.failed));
      const row = {
        key,
        label,
        httpCalls: calls,
        eventsPerCall: TRIGGERS / calls,
        settledMs: median(rounds.map((r) => r.settledMs)),
        allReceivedMs: median(rounds.map((r) => r.allReceivedMs)),
        received,
        duplicates,
        outOfOrder,
        failed,
        rateLimited: Math.max(...rounds.map((r) => r.rateLimited)),
        exactlyOnce: received === TRIGGERS && duplicates === 0,
      };
      console.log(
        tableLine(w, [
          label,
          String(calls),
          fmt(row.eventsPerCall, 1),
          fmt(row.settledMs, 0),
          fmt(row.allReceivedMs, 0),
          `${received}/${TRIGGERS}`,
          String(duplicates),
          outOfOrder === 0 ? 'yes' : `no (${outOfOrder})`,
        ]),
      );
      if (failed) {
        console.log(
          `  ${label}: ${failed} triggers failed, e.g. ${rounds.find((r) => r.firstError)?.firstError}`,
        );
      }
      return row;
    });
    const on = summary.find((r) => r.key === 'x-coalesce-on')!;
    const off = summary.find((r) => r.key === 'x-coalesce-off')!;
    console.log(
      `  coalescing saved ${off.httpCalls - on.httpCalls} of ${off.httpCalls} HTTP calls (${fmt((1 - on.httpCalls / off.httpCalls) * 100, 1)}%); ` +
        'in order = the subscriber got the events in the order they were triggered.',
    );

    const out = writeResults(new URL('./results-coalescing.json', import.meta.url), loadAtStart, {
      settings: { triggers: TRIGGERS, rounds: ROUNDS },
      summary,
      rounds: results,
    });
    console.log(
      `\nwrote ${out}; load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} at end`,
    );
  } finally {
    await subscriber.close().catch(() => {});
    await sandbox.close().catch(() => {});
  }
}

main().catch((error: unknown) => {
  console.error('coalescing bench did not complete:', error);
  process.exitCode = 0;
});
