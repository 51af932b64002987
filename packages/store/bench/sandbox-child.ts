/**
 * One sandbox in its own process, forked by `store.bench.ts`, so that the emulator's CPU (sorting the
 * collection for every page, cloning the state for every write) does not delay the timers and sockets
 * of the clients being measured. Options arrive in `BENCH_SANDBOX_OPTIONS` (JSON); the parent talks to
 * it over IPC: `stats`, `resetStats`, `close`.
 */
import { type SandboxOptions, startSandbox } from '@x/sandbox';

export type ChildRequest = { id: number; type: 'stats' | 'resetStats' | 'close' };
export type ChildMessage =
  | { type: 'ready'; url: string }
  | { type: 'reply'; id: number; stats?: { requests: number; rateLimited: number; arrivals: number[] } };

const send = (message: ChildMessage) => process.send?.(message);
const options = JSON.parse(process.env.BENCH_SANDBOX_OPTIONS ?? '{}') as SandboxOptions;
// `store` spelled out: the sandbox is the store here, whatever else it may start.
const box = await startSandbox({ ...options, store: options.store ?? {}, port: 0 });

process.on('message', async (message: ChildRequest) => {
  if (message.type === 'stats') send({ type: 'reply', id: message.id, stats: box.store.stats() });
  else if (message.type === 'resetStats') {
    box.store.resetStats();
    send({ type: 'reply', id: message.id });
  } else if (message.type === 'close') {
    await box.close();
    send({ type: 'reply', id: message.id });
    process.disconnect();
  }
});
// The parent died or disconnected: do not linger.
process.on('disconnect', () => void box.close().finally(() => process.exit(0)));

send({ type: 'ready', url: box.store.url });
