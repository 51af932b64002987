/**
 * The sandbox realtime emulator's fan-out: BENCH_SOCKETS raw `ws` sockets (protocol 7 by hand, no client
 * library) subscribed to one public channel, then one `RealtimeServer.trigger` (coalesce off, rate limit
 * off) carrying its send time, repeated BENCH_FANOUT_ROUNDS times. Per round: each socket's arrival time
 * minus the send time (taken just before the `trigger` call), and from those the first, p50, p99 and last
 * arrival: the last is the time until every socket had the event. Every socket must get every event once.
 * Two rounds before those are not counted (warm-up).
 *
 * The emulator runs in a child process (sandbox-child.ts: `startSandbox` with the app's `maxConnections`
 * set to BENCH_SOCKETS + 16, HTTP rate limit off), so its memory is its own: its RSS is sampled every 10 ms
 * from before the sockets connect to after the last round (peak and growth over that baseline), and its
 * getrusage maxRSS is read at the end. The sockets all live in this process, whose one event loop takes
 * their frames one after another: late arrivals include this process's work on the earlier ones, so the
 * spread is an upper bound on the emulator's. Sockets connect 50 at a time.
 *
 *   pnpm --filter @x/realtime bench                       (latency, coalescing, then this file)
 *   pnpm --filter @x/realtime exec tsx bench/fanout.bench.ts
 *   BENCH_SOCKETS=100 BENCH_FANOUT_ROUNDS=5 pnpm --filter @x/realtime exec tsx bench/fanout.bench.ts
 *
 * Env: BENCH_SOCKETS (default 1000), BENCH_FANOUT_ROUNDS (default 20), BENCH_GAP_MS (between rounds,
 * default 100). Prints tables; writes bench/results-fanout.json (not committed). A measurement: never fails.
 */
import { loadavg } from 'node:os';
import { REALTIME_DEV_APP } from '@x/sandbox';
import WebSocket from 'ws';
import {
  fmt,
  intEnv,
  MiB,
  machineLine,
  median,
  percentile,
  tableLine,
  writeResults,
} from '../../../bench.tools.js';
import type { SandboxCounts, SandboxMemory, SandboxReady } from './sandbox-child.js';
import { sandboxServer } from './servers.js';
import { nowMs, sleep, startChild, waitUntil } from './shared.js';

const SOCKETS = intEnv('BENCH_SOCKETS', 1000);
const ROUNDS = intEnv('BENCH_FANOUT_ROUNDS', 20);
const GAP_MS = intEnv('BENCH_GAP_MS', 100);
const WARMUP_ROUNDS = 2;
const CONNECT_BATCH = 50;
const CHANNEL = 'bench-fanout';

interface Sock {
  ws: WebSocket;
  /** Per round: arrival time (monotonic ms) and the raw frame, checked after the round. */
  arrivals: Array<{ at: number; raw: Buffer }>;
}

/** Opens a socket, waits for the handshake and the subscription. */
function openSocket(wsUrl: string, key: string): Promise<Sock> {
  const ws = new WebSocket(`${wsUrl}/app/${key}?protocol=7&client=bench&version=0`);
  const sock: Sock = { ws, arrivals: [] };
  let subscribed = false;
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.on('message', (raw: Buffer) => {
      if (subscribed) {
        // Only the time here; parsing waits until the round is over.
        sock.arrivals.push({ at: nowMs(), raw });
        return;
      }
      const frame = JSON.parse(raw.toString()) as { event: string };
      if (frame.event === 'pusher:connection_established') {
        ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel: CHANNEL } }));
      } else if (frame.event === 'pusher_internal:subscription_succeeded') {
        subscribed = true;
        resolve(sock);
      } else if (frame.event === 'pusher:error') {
        reject(new Error(raw.toString()));
      }
    });
  });
}

interface RoundResult {
  delivered: number;
  duplicates: number;
  strays: number;
  first: number;
  p50: number;
  p99: number;
  last: number;
  messagesOut: number;
}

async function main(): Promise<void> {
  const loadAtStart = loadavg();
  const sandbox = await startChild<SandboxReady>('sandbox-child.ts', {
    BENCH_SANDBOX_OPTIONS: JSON.stringify({
      httpRateLimit: false,
      apps: [{ ...REALTIME_DEV_APP, maxConnections: SOCKETS + 16 }],
    }),
  });
  const rt = sandbox.ready;
  const server = sandboxServer(rt, { coalesce: false, rateLimit: false, maxRetries: 0 });
  const sockets: Sock[] = [];
  try {
    console.log(`\nrealtime emulator fan-out — ${machineLine(loadAtStart)}`);
    // A warm-up call, so the first round does not pay for the HTTP connection and the JIT.
    await server.trigger(CHANNEL, 'bench', { i: -1, t: 0 });
    await sandbox.call('memoryStart');
    const connectStart = nowMs();
    for (let s = 0; s < SOCKETS; s += CONNECT_BATCH) {
      const batch = Math.min(CONNECT_BATCH, SOCKETS - s);
      sockets.push(...(await Promise.all(Array.from({ length: batch }, () => openSocket(rt.wsUrl, rt.key)))));
    }
    const connectMs = nowMs() - connectStart;
    const open = await sandbox.call<number>('connections');
    console.log(
      `sandbox pid ${rt.pid}: ${open} connections open, ${SOCKETS} subscribed to ${CHANNEL} in ${fmt(connectMs, 0)} ms`,
    );

    const rounds: RoundResult[] = [];
    for (let round = -WARMUP_ROUNDS; round < ROUNDS; round++) {
      for (const sock of sockets) sock.arrivals = [];
      await sandbox.call('resetStats');
      const t = nowMs();
      await server.trigger(CHANNEL, 'bench', { i: round, t });
      await waitUntil(() => sockets.every((s) => s.arrivals.length > 0), 10_000);
      await sleep(GAP_MS);
      const times: number[] = [];
      let duplicates = 0;
      let strays = 0;
      for (const sock of sockets) {
        let mine = 0;
        for (const { at, raw } of sock.arrivals) {
          const frame = JSON.parse(raw.toString()) as { event: string; channel?: string; data?: string };
          const data =
            frame.event === 'bench' ? (JSON.parse(frame.data!) as { i: number; t: number }) : undefined;
          if (!data || data.i !== round || frame.channel !== CHANNEL) {
            strays += 1;
            continue;
          }
          if (mine++ === 0) times.push(at - data.t);
          else duplicates += 1;
        }
      }
      const { messagesOut } = await sandbox.call<SandboxCounts>('stats');
      if (round < 0) continue;
      rounds.push({
        delivered: times.length,
        duplicates,
        strays,
        first: percentile(times, 0),
        p50: percentile(times, 50),
        p99: percentile(times, 99),
        last: percentile(times, 100),
        messagesOut,
      });
    }
    const memory = await sandbox.call<SandboxMemory>('memoryStop');

    const incomplete = rounds.filter((r) => r.delivered < SOCKETS).length;
    const w = [30, 16, 14, 14];
    console.log(
      `\n1 trigger → ${SOCKETS} subscribed sockets, ${ROUNDS} rounds (ms from trigger call to arrival)`,
    );
    console.log(tableLine(w, ['', 'median of rounds', 'best round', 'worst round']));
    const line = (label: string, pick: (r: RoundResult) => number) => {
      const values = rounds.map(pick);
      console.log(
        tableLine(w, [label, fmt(median(values)), fmt(Math.min(...values)), fmt(Math.max(...values))]),
      );
    };
    line('first socket', (r) => r.first);
    line('p50 socket', (r) => r.p50);
    line('p99 socket', (r) => r.p99);
    line('all received (last socket)', (r) => r.last);
    const delivered = rounds.reduce((n, r) => n + r.delivered, 0);
    console.log(
      `  delivered ${delivered}/${SOCKETS * ROUNDS} (rounds short of a socket: ${incomplete}), duplicates ` +
        `${rounds.reduce((n, r) => n + r.duplicates, 0)}, other frames ${rounds.reduce((n, r) => n + r.strays, 0)}; ` +
        `emulator frames out per round: ${median(rounds.map((r) => r.messagesOut))} (median)`,
    );

    const mw = [30, 12];
    console.log(`\nSandbox process memory (pid ${rt.pid}, its own process)`);
    console.log(tableLine(mw, ['RSS before the sockets', `${fmt(memory.rssAtStart / MiB, 1)} MiB`]));
    console.log(tableLine(mw, ['peak RSS (10 ms samples)', `${fmt(memory.peakRss / MiB, 1)} MiB`]));
    console.log(
      tableLine(mw, ['peak growth', `${fmt((memory.peakRss - memory.rssAtStart) / MiB, 1)} MiB`]) +
        `  (${fmt((memory.peakRss - memory.rssAtStart) / SOCKETS / 1024, 1)} KiB per socket)`,
    );
    console.log(tableLine(mw, ['maxRSS (getrusage)', `${fmt(memory.maxRss / MiB, 1)} MiB`]));

    const out = writeResults(new URL('./results-fanout.json', import.meta.url), loadAtStart, {
      settings: { sockets: SOCKETS, rounds: ROUNDS, gapMs: GAP_MS },
      connectMs,
      openConnections: open,
      rounds,
      summary: {
        firstMedian: median(rounds.map((r) => r.first)),
        p50Median: median(rounds.map((r) => r.p50)),
        p99Median: median(rounds.map((r) => r.p99)),
        allReceivedMedian: median(rounds.map((r) => r.last)),
        allReceivedWorst: Math.max(...rounds.map((r) => r.last)),
        delivered,
        expected: SOCKETS * ROUNDS,
      },
      memory,
    });
    console.log(
      `\nwrote ${out}; load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} at end`,
    );
  } finally {
    for (const sock of sockets) sock.ws.terminate();
    await sandbox.close().catch(() => {});
  }
}

main().catch((error: unknown) => {
  console.error('fan-out bench did not complete:', error);
  process.exitCode = 0;
});
