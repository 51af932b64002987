/**
 * The sandbox's realtime emulator in a process of its own, for the realtime benchmarks: its CPU and memory
 * are then its own (the fan-out bench reads its peak RSS), and it never measures on a client's event loop.
 * Started by the benches through `startChild('sandbox-child.ts', { BENCH_SANDBOX_OPTIONS: json })`, where the
 * JSON is the `realtime` options of `startSandbox`. Calls: `stats`, `resetStats`, `connections`,
 * `memoryStart` (RSS sampled every 10 ms from then on), `memoryStop` (the peak since `memoryStart`, the
 * process's maxRSS from getrusage), `close`.
 */
import type { RealtimeEmulatorOptions } from '@x/sandbox';
import { startSandbox } from '@x/sandbox';
import { serve } from './shared.js';

export interface SandboxReady {
  url: string;
  wsUrl: string;
  appId: string;
  key: string;
  secret: string;
  pid: number;
}

export interface SandboxCounts {
  requests: number;
  rateLimited: number;
  socketsOpened: number;
  socketsOpen: number;
  messagesIn: number;
  messagesOut: number;
  slowClosed: number;
}

export interface SandboxMemory {
  /** RSS when `memoryStart` was called. */
  rssAtStart: number;
  /** Highest RSS sampled since `memoryStart`. */
  peakRss: number;
  rssNow: number;
  /** getrusage maxRSS of the whole process life, in bytes. */
  maxRss: number;
}

const options = JSON.parse(process.env.BENCH_SANDBOX_OPTIONS ?? '{}') as RealtimeEmulatorOptions;
const sandbox = await startSandbox({ store: false, realtime: options });
const rt = sandbox.realtime!;

let peak = 0;
let atStart = 0;
let sampler: NodeJS.Timeout | undefined;
const sample = () => {
  const rss = process.memoryUsage.rss();
  if (rss > peak) peak = rss;
};

serve(
  { url: rt.url, wsUrl: rt.wsUrl, appId: rt.appId, key: rt.key, secret: rt.secret, pid: process.pid },
  {
    stats: (): SandboxCounts => {
      const s = rt.stats();
      return {
        requests: s.http.requests,
        rateLimited: s.http.rateLimited,
        socketsOpened: s.sockets.opened,
        socketsOpen: s.sockets.open,
        messagesIn: s.sockets.messagesIn,
        messagesOut: s.sockets.messagesOut,
        slowClosed: s.sockets.slowClosed,
      };
    },
    resetStats: () => rt.resetStats(),
    connections: () => rt.connections(),
    memoryStart: () => {
      globalThis.gc?.();
      atStart = process.memoryUsage.rss();
      peak = atStart;
      clearInterval(sampler);
      sampler = setInterval(sample, 10);
    },
    memoryStop: (): SandboxMemory => {
      sample();
      clearInterval(sampler);
      sampler = undefined;
      return {
        rssAtStart: atStart,
        peakRss: peak,
        rssNow: process.memoryUsage.rss(),
        maxRss: process.resourceUsage().maxRSS * 1024,
      };
    },
    close: async () => {
      clearInterval(sampler);
      await sandbox.close();
    },
  },
);
