/**
 * 200 clients lose the same emulator at once (a restart) and come back with the shipped reconnect schedule:
 * full-jitter exponential, 1 s base, 30 s cap. The invariant is asserted (every client reconnects, resubscribes
 * and receives the next event); the spread of the reconnect times is only printed, for the closing note,
 * since how it falls depends on the random draws and the machine's load.
 */
import { describe, expect, it } from 'vitest';
import { type TestClient, waitFor } from '../helpers/sandbox.js';
import { clientSandbox } from '../helpers/sandbox-hooks.js';

const CLIENTS = 200;
const CHANNELS = 20;

const { box, server, fleet } = clientSandbox();

interface Tracked {
  client: TestClient;
  channel: string;
  /** ms after the restart: back in `connected`, and resubscribed. */
  connectedAfter: number | null;
  resubscribedAfter: number | null;
  received: unknown[];
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

describe(`${CLIENTS} clients and a restart`, () => {
  it('every client reconnects and resubscribes; full jitter spreads them out', async () => {
    let restartedAt = Number.POSITIVE_INFINITY;
    const tracked: Tracked[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      // The defaults, spelled out: this is the schedule that has to spread the fleet.
      const client = fleet.make(`u-${i}`, { reconnect: { baseDelayMs: 1000, maxDelayMs: 30_000 } });
      const entry: Tracked = {
        client,
        channel: `private-fleet-${i % CHANNELS}`,
        connectedAfter: null,
        resubscribedAfter: null,
        received: [],
      };
      const channel = client.subscribe(entry.channel);
      channel.bind('after', (data) => entry.received.push(data));
      channel.bind('pusher:resubscribed', () => {
        entry.resubscribedAfter ??= performance.now() - restartedAt;
      });
      client.connection.bind('connected', () => {
        if (Number.isFinite(restartedAt)) entry.connectedAfter ??= performance.now() - restartedAt;
      });
      tracked.push(entry);
    }
    await waitFor(() => tracked.every((t) => t.client.channel(t.channel)?.isSubscribed === true), 20_000);
    expect(box.rt.connections()).toBe(CLIENTS);

    restartedAt = performance.now();
    box.rt.restart();
    await waitFor(() => tracked.every((t) => t.resubscribedAfter !== null), 30_000);
    expect(box.rt.connections()).toBe(CLIENTS);
    expect(tracked.every((t) => t.connectedAfter !== null)).toBe(true);
    const subscribers = box.rt.channels().reduce((sum, channel) => sum + channel.subscriptionCount, 0);
    expect(subscribers).toBe(CLIENTS);

    for (let c = 0; c < CHANNELS; c++) await server.trigger(`private-fleet-${c}`, 'after', { c });
    await waitFor(() => tracked.every((t) => t.received.length === 1), 10_000);

    const reconnect = tracked.map((t) => t.connectedAfter as number).sort((a, b) => a - b);
    const resubscribe = tracked.map((t) => t.resubscribedAfter as number).sort((a, b) => a - b);
    const line = (name: string, ms: number[]) =>
      `${name}: min ${ms[0]?.toFixed(0)} ms, p50 ${percentile(ms, 50).toFixed(0)}, p90 ${percentile(ms, 90).toFixed(0)}, max ${ms.at(-1)?.toFixed(0)}`;
    const perTenth = Array.from({ length: 10 }, (_, i) =>
      reconnect.filter((ms) => ms >= i * 100 && ms < (i + 1) * 100),
    ).map((bucket) => bucket.length);
    console.log(
      [
        `${CLIENTS} clients after a restart (full jitter, base 1 s):`,
        line('  reconnected', reconnect),
        line('  resubscribed', resubscribe),
        `  reconnects per 100 ms over the first second: ${perTenth.join(' ')}`,
      ].join('\n'),
    );
  });
});
