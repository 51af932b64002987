/**
 * Trigger-to-receive latency and client message throughput of `@x/realtime`'s `RealtimeClient` vs the
 * official `pusher-js` 8.6.0, with a raw `ws` socket (protocol 7 by hand, no library) as the floor, all
 * against the same sandbox realtime emulator in one run. The emulator runs in a child process
 * (sandbox-child.ts, HTTP rate limit off, send buffer cap raised for the backlog phase) and each subscriber
 * in its own (subscriber-child.ts), so no subscriber receives while another's callbacks hold the loop; the
 * sender is this process. Times are on the monotonic clock, which every process of the machine shares.
 *
 *   latency   the three subscribers on one public channel; BENCH_TRIGGERS events sent at a steady pace
 *             (one every BENCH_INTERVAL_MS) by `RealtimeServer.trigger` (coalesce off, rate limit off), each
 *             carrying its send time, taken just before the `trigger` call; the receive time is taken first
 *             thing in the library's callback. Per client: p50, p99, max of receive − send, after
 *             BENCH_WARMUP events that are not counted. Each event is thus one HTTP call, the emulator's
 *             fan-out to 3 sockets and the client's parse and dispatch.
 *   live      per client in turn (each on a channel of its own, the others idle; after a warm-up burst
 *             that is not counted), BENCH_BURST events
 *             published with `RealtimeServer.triggerBatch` (10 per call) from BENCH_SENDERS concurrent
 *             calls; events/s = received / (last receive − start of publishing). Bounded by whichever of
 *             sender, emulator and client is slowest on this machine; the publish rate is printed beside it.
 *   backlog   the same burst while the subscriber's event loop is blocked (its sockets unread), published
 *             completely, then released: events/s = received / (last receive − release). The client alone
 *             drains what is queued in the kernel and the emulator: its own ceiling.
 *
 *   pnpm --filter @x/realtime bench                       (this file, then coalescing and fan-out)
 *   pnpm --filter @x/realtime exec tsx bench/latency.bench.ts
 *   BENCH_TRIGGERS=200 BENCH_BURST=2000 pnpm --filter @x/realtime exec tsx bench/latency.bench.ts
 *
 * Env: BENCH_TRIGGERS (default 2000), BENCH_INTERVAL_MS (default 5), BENCH_WARMUP (default 200),
 * BENCH_BURST (default 20000), BENCH_SENDERS (default 4), BENCH_TIMEOUT_S (per collection, default 60).
 * Prints tables; writes bench/results-latency.json (not committed). A measurement: never fails the process.
 */
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, intEnv, machineLine, percentile, tableLine, writeResults } from '../../../bench.tools.js';
import type { BatchEvent, RealtimeServer } from '../src/server.js';
import type { SandboxCounts, SandboxReady } from './sandbox-child.js';
import { sandboxServer } from './servers.js';
import { type Child, nowMs, sleep, startChild } from './shared.js';
import type { Collected, SubscriberKind } from './subscriber-child.js';

const TRIGGERS = intEnv('BENCH_TRIGGERS', 2000);
const INTERVAL_MS = intEnv('BENCH_INTERVAL_MS', 5);
const WARMUP = intEnv('BENCH_WARMUP', 200);
const BURST = intEnv('BENCH_BURST', 20_000);
const SENDERS = intEnv('BENCH_SENDERS', 4);
const TIMEOUT_MS = intEnv('BENCH_TIMEOUT_S', 60) * 1000;
const LATENCY_CHANNEL = 'bench-latency';

const SUBSCRIBERS: { kind: SubscriberKind; label: string }[] = [
  { kind: 'x-realtime', label: '@x/realtime RealtimeClient' },
  { kind: 'pusher-js', label: 'pusher-js 8.6.0' },
  { kind: 'ws', label: 'raw ws (floor, no library)' },
];

interface LatencyRow {
  kind: SubscriberKind;
  label: string;
  sent: number;
  received: number;
  duplicates: number;
  p50: number;
  p99: number;
  max: number;
}

interface ThroughputRow {
  kind: SubscriberKind;
  label: string;
  live: { received: number; duplicates: number; ms: number; eventsPerSec: number; publishPerSec: number };
  backlog: {
    received: number;
    duplicates: number;
    ms: number;
    eventsPerSec: number;
    slowClosed: number;
  };
}

/** Sends `count` events at a steady pace, each stamped just before its `trigger` call; resolves when all settled. */
async function pacedTriggers(
  server: RealtimeServer,
  count: number,
): Promise<{ failed: number; error?: string }> {
  const pending: Promise<unknown>[] = [];
  let failed = 0;
  let error: string | undefined;
  const start = nowMs();
  for (let i = 0; i < count; i++) {
    const due = start + i * INTERVAL_MS;
    const wait = due - nowMs();
    if (wait > 1) await sleep(wait - 0.5);
    while (nowMs() < due) {
      // Spin off the last half millisecond: setTimeout alone lands up to a millisecond late.
    }
    pending.push(
      server.trigger(LATENCY_CHANNEL, 'bench', { i, t: nowMs() }).catch((e: unknown) => {
        failed += 1;
        error ??= e instanceof Error ? e.message : String(e);
      }),
    );
  }
  await Promise.all(pending);
  return error === undefined ? { failed } : { failed, error };
}

/** `count` events on `channel` via `triggerBatch`, split over SENDERS concurrent calls. */
async function burst(server: RealtimeServer, channel: string, count: number, t: number): Promise<void> {
  const events: BatchEvent[] = Array.from({ length: count }, (_, i) => ({
    channel,
    name: 'bench',
    data: { i, t },
  }));
  const per = Math.ceil(count / SENDERS);
  const slices: BatchEvent[][] = [];
  for (let s = 0; s < count; s += per) slices.push(events.slice(s, s + per));
  await Promise.all(slices.map((slice) => server.triggerBatch(slice)));
}

async function main(): Promise<void> {
  const loadAtStart = loadavg();
  const sandbox = await startChild<SandboxReady>('sandbox-child.ts', {
    BENCH_SANDBOX_OPTIONS: JSON.stringify({ httpRateLimit: false, maxBufferedBytes: 1024 * 2 ** 20 }),
  });
  const rt = sandbox.ready;
  const server = sandboxServer(rt, { coalesce: false, rateLimit: false, maxRetries: 0 });
  const children: Child[] = [];
  try {
    const subs = new Map<SubscriberKind, Child>();
    for (const { kind } of SUBSCRIBERS) {
      const child = await startChild('subscriber-child.ts', { BENCH_SUBSCRIBER: kind });
      children.push(child);
      subs.set(kind, child);
      await child.call('connect', { wsUrl: rt.wsUrl, key: rt.key });
      await child.call('subscribe', { channel: LATENCY_CHANNEL });
      await child.call('subscribe', { channel: `bench-burst-${kind}` });
    }

    console.log(`\nrealtime latency and throughput — ${machineLine(loadAtStart)}`);
    console.log(
      `sandbox pid ${rt.pid}, subscribers ${[...subs].map(([k, c]) => `${k} pid ${c.process.pid}`).join(', ')}`,
    );

    // Latency: warm-up (not counted), then the measured run, the three subscribers at once.
    const latency: LatencyRow[] = [];
    let sendFailures = { failed: 0 } as { failed: number; error?: string };
    for (const [phase, count] of [
      ['warm-up', WARMUP],
      ['measured', TRIGGERS],
    ] as const) {
      await Promise.all(
        [...subs.values()].map((c) => c.call('record', { channel: LATENCY_CHANNEL, expected: count })),
      );
      sendFailures = await pacedTriggers(server, count);
      const collected = await Promise.all(
        SUBSCRIBERS.map(({ kind }) =>
          subs.get(kind)!.call<Collected>('collect', { channel: LATENCY_CHANNEL, timeoutMs: 5000 }),
        ),
      );
      if (phase === 'warm-up') continue;
      SUBSCRIBERS.forEach(({ kind, label }, k) => {
        const c = collected[k]!;
        latency.push({
          kind,
          label,
          sent: count - sendFailures.failed,
          received: c.received,
          duplicates: c.duplicates,
          p50: percentile(c.latencies, 50),
          p99: percentile(c.latencies, 99),
          max: percentile(c.latencies, 100),
        });
      });
    }

    const lw = [30, 12, 6, 10, 10, 10];
    console.log(
      `\nTrigger-to-receive: ${TRIGGERS} events, one every ${INTERVAL_MS} ms (RealtimeServer.trigger, coalesce off), ` +
        `3 subscribers on one channel, ${WARMUP} warm-up events not counted`,
    );
    console.log(tableLine(lw, ['client', 'recv/sent', 'dup', 'p50 ms', 'p99 ms', 'max ms']));
    for (const r of latency) {
      console.log(
        tableLine(lw, [
          r.label,
          `${r.received}/${r.sent}`,
          String(r.duplicates),
          fmt(r.p50),
          fmt(r.p99),
          fmt(r.max),
        ]),
      );
    }
    if (sendFailures.failed > 0)
      console.log(`  ${sendFailures.failed} triggers failed: ${sendFailures.error}`);

    // Throughput: one subscriber at a time, on its own channel.
    const throughput: ThroughputRow[] = [];
    const flagDir = tmpdir();
    // Warm-up (not counted): the batch path of sender and emulator, so the first client is not measured cold.
    {
      const channel = 'bench-burst-ws';
      const count = Math.min(BURST, 5000);
      await subs.get('ws')!.call('record', { channel, expected: count });
      await burst(server, channel, count, nowMs());
      await subs.get('ws')!.call('collect', { channel, timeoutMs: TIMEOUT_MS }, TIMEOUT_MS + 10_000);
    }
    for (const { kind, label } of SUBSCRIBERS) {
      const child = subs.get(kind)!;
      const channel = `bench-burst-${kind}`;

      await child.call('record', { channel, expected: BURST });
      const t0 = nowMs();
      await burst(server, channel, BURST, t0);
      const published = nowMs();
      const live = await child.call<Collected>(
        'collect',
        { channel, timeoutMs: TIMEOUT_MS },
        TIMEOUT_MS + 10_000,
      );
      await sleep(200);

      await sandbox.call('resetStats');
      await child.call('record', { channel, expected: BURST });
      const flag = join(flagDir, `x-realtime-bench-${randomBytes(6).toString('hex')}`);
      await child.call('hold', { flag });
      await burst(server, channel, BURST, nowMs());
      const { slowClosed } = await sandbox.call<SandboxCounts>('stats');
      writeFileSync(flag, '');
      const backlog = await child.call<Collected>(
        'collect',
        { channel, timeoutMs: TIMEOUT_MS },
        TIMEOUT_MS + 10_000,
      );
      rmSync(flag, { force: true });
      await sleep(200);

      const liveMs = live.last - t0;
      const backlogMs = backlog.last - backlog.wokeAt;
      throughput.push({
        kind,
        label,
        live: {
          received: live.received,
          duplicates: live.duplicates,
          ms: liveMs,
          eventsPerSec: (live.received / liveMs) * 1000,
          publishPerSec: (BURST / (published - t0)) * 1000,
        },
        backlog: {
          received: backlog.received,
          duplicates: backlog.duplicates,
          ms: backlogMs,
          eventsPerSec: (backlog.received / backlogMs) * 1000,
          slowClosed,
        },
      });
    }

    const tw = [30, 13, 11, 13, 13, 13];
    console.log(
      `\nClient throughput: bursts of ${BURST} events (triggerBatch, 10 per call, ${SENDERS} concurrent senders), one subscriber at a time`,
    );
    console.log(
      tableLine(tw, ['client', 'live recv', 'live ev/s', 'publish ev/s', 'backlog recv', 'backlog ev/s']),
    );
    for (const r of throughput) {
      console.log(
        tableLine(tw, [
          r.label,
          `${r.live.received}/${BURST}`,
          fmt(r.live.eventsPerSec, 0),
          fmt(r.live.publishPerSec, 0),
          `${r.backlog.received}/${BURST}`,
          fmt(r.backlog.eventsPerSec, 0),
        ]),
      );
      if (r.live.duplicates || r.backlog.duplicates || r.backlog.slowClosed) {
        console.log(
          `  ${r.label}: duplicates ${r.live.duplicates} live, ${r.backlog.duplicates} backlog; emulator closed ${r.backlog.slowClosed} slow sockets`,
        );
      }
    }
    console.log(
      '  live = received / (last receive − start of publishing), bounded by the slowest of sender, emulator, client;\n' +
        '  backlog = received / (last receive − release of a subscriber blocked while the burst was published).',
    );

    const out = writeResults(new URL('./results-latency.json', import.meta.url), loadAtStart, {
      settings: {
        triggers: TRIGGERS,
        intervalMs: INTERVAL_MS,
        warmup: WARMUP,
        burst: BURST,
        senders: SENDERS,
      },
      latency,
      sendFailures,
      throughput,
    });
    console.log(
      `\nwrote ${out}; load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} at end`,
    );
  } finally {
    await Promise.all(children.map((c) => c.close().catch(() => {})));
    await sandbox.close().catch(() => {});
  }
}

main().catch((error: unknown) => {
  console.error('latency bench did not complete:', error);
  process.exitCode = 0;
});
