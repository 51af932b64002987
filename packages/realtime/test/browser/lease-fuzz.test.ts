/**
 * The lease behind `useChannel` and the provider, fuzzed as React drives it: random interleavings of
 * retains, releases (some called twice, as a cleanup may be), and task boundaries, on a client that is never
 * connected (no socket). After the last task the client holds a channel exactly for the names with a holder,
 * and the connection is wanted exactly while the socket has a holder.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { RealtimeClient, type SocketLike } from '../../src/index.js';
import { Lease } from '../../src/react/lease.js';

const NAMES = ['room', 'private-room', 'presence-lobby'];
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

type Step =
  | { kind: 'retain'; name: number }
  | { kind: 'release'; which: number; twice: boolean }
  | { kind: 'socket' }
  | { kind: 'task' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('retain' as const), name: fc.nat(NAMES.length - 1) }),
  fc.record({ kind: fc.constant('release' as const), which: fc.nat(20), twice: fc.boolean() }),
  fc.record({ kind: fc.constant('socket' as const) }),
  fc.record({ kind: fc.constant('task' as const) }),
);

for (const run of fuzzRuns(200)) {
  it(`lease: channels and the socket are held exactly while they have holders, ${run.label}`, async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), async (steps) => {
        n++;
        // A socket that never opens: connecting stays pending, no network.
        const inert = (): SocketLike => ({
          readyState: 0,
          send() {},
          close() {},
          onopen: null,
          onmessage: null,
          onclose: null,
          onerror: null,
        });
        const client = new RealtimeClient('key', { wsHost: '127.0.0.1', webSocketFactory: inert });
        const lease = new Lease(client);
        const held: Array<{ name: string | null; release: () => void }> = [];
        const holders = new Map<string | null, number>();
        const count = (name: string | null, by: number) => holders.set(name, (holders.get(name) ?? 0) + by);
        for (const s of steps) {
          if (s.kind === 'retain') {
            const name = NAMES[s.name]!;
            held.push({ name, release: lease.retainChannel(name) });
            count(name, 1);
          } else if (s.kind === 'socket') {
            held.push({ name: null, release: lease.retainConnection() });
            count(null, 1);
          } else if (s.kind === 'release' && held.length > 0) {
            const [h] = held.splice(s.which % held.length, 1);
            h!.release();
            if (s.twice) h!.release();
            count(h!.name, -1);
          } else if (s.kind === 'task') {
            await nextTask();
          }
        }
        await nextTask();
        for (const name of NAMES) {
          expect(lease.holders(name)).toBe(holders.get(name) ?? 0);
          expect(client.channel(name) !== undefined).toBe((holders.get(name) ?? 0) > 0);
        }
        const wanted = (holders.get(null) ?? 0) > 0;
        if (wanted) expect(client.connection.state).toBe('connecting');
        else expect(['initialized', 'disconnected']).toContain(client.connection.state);
        client.disconnect();
      }),
      { seed: run.seed, numRuns: run.numRuns },
    );
    reportFuzz('react lease', run, n);
  });
}
