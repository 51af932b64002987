/**
 * The reconnecting socket's input surface, fuzzed: what a peer does (frames of any kind, closes with any
 * code and reason, error events, at any moment, also on sockets already dropped), what the runtime says
 * (online, offline), what the app does (connect, disconnect) and time passing, in random order, with
 * verdicts that vary with the close code. After every step the machine must hold its invariants: a known
 * state, at most one socket held, at most one timer, nothing held or pending once it has stopped, no throw;
 * and a wait for a connection must settle once it is closed.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { type CloseVerdict, type SocketClose, untilConnected } from '../../src/socket/index.js';
import { flush, lineSetup } from '../helpers/socket-fakes.js';

type Step =
  | { kind: 'connect' | 'disconnect' | 'online' | 'offline' | 'flush' }
  | { kind: 'frame'; data: unknown; stale: boolean }
  | { kind: 'close'; code: number; reason: string; error: boolean; stale: boolean }
  | { kind: 'advance'; ms: number };

const data = fc.oneof(
  fc.constantFrom('ping', 'pong', 'hello 1.1', 'hello ', 'hello'),
  fc.string({ maxLength: 30 }).map((s) => `hello ${s}`),
  fc.string({ maxLength: 30 }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.uint8Array({ maxLength: 16 }),
);
const code = fc.oneof(
  fc.constantFrom(1000, 1001, 1005, 1006, 1008, 1011, 3005, 3008, 4000, 4001, 4100, 4200, 4201, 4301),
  fc.integer({ min: -1, max: 70_000 }),
);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: fc.constant<Step>({ kind: 'connect' }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Step>({ kind: 'disconnect' }, { kind: 'online' }, { kind: 'offline' }),
  },
  // Lets a `url()` and a factory resolve: without it no socket opens; between two steps, one is in flight.
  { weight: 4, arbitrary: fc.constant<Step>({ kind: 'flush' }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('frame' as const), data, stale: fc.boolean() }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('close' as const),
      code,
      reason: fc.string({ maxLength: 20 }),
      error: fc.boolean(),
      stale: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 120_000 }) }),
  },
);

/** A verdict per close code, so every kind is taken, each time the same for the same code. */
function verdict({ code }: SocketClose): CloseVerdict {
  const pick = Math.abs(code) % 5;
  if (pick === 0) return { fail: new Error(`refused ${code}`) };
  if (pick === 1) return 'retry';
  if (pick === 2) return 1000;
  // `now` only for one code, as a protocol that switches something returns it once per change.
  if (code === 4000) return 'now';
  return 'backoff';
}

const STATES = ['initialized', 'connecting', 'connected', 'unavailable', 'failed', 'disconnected'];

for (const run of fuzzRuns(300)) {
  it(`reconnecting socket ${run.label}`, async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), async (steps) => {
        n++;
        const t = lineSetup({ connectTimeoutMs: 3000, activityTimeoutMs: 2000, pongTimeoutMs: 1000 });
        t.socket.verdict = verdict;
        t.socket.onOpenFailed = () => 'backoff';
        const settled: string[] = [];
        const track = () =>
          untilConnected(t.socket, (state) => state).then(
            () => settled.push('connected'),
            (state) => settled.push(String(state)),
          );
        const waits = [track()];
        for (const s of steps) {
          // A stale target is an earlier socket: what it does must not touch the current one.
          const target = 'stale' in s && s.stale ? t.sockets.at(-2) : t.sockets.at(-1);
          if (s.kind === 'connect') {
            t.socket.connect();
            waits.push(track());
          } else if (s.kind === 'disconnect') t.socket.disconnect();
          else if (s.kind === 'online') t.socket.online();
          else if (s.kind === 'offline') t.socket.offline();
          else if (s.kind === 'flush') await flush();
          else if (s.kind === 'advance') t.clock.advance(s.ms);
          else if (s.kind === 'frame') target?.frame(s.data);
          else if (s.kind === 'close') {
            if (s.error) target?.onerror?.({ error: { code: 'ECONNRESET' } });
            target?.serverClose(s.code, s.reason);
          }
          expect(STATES).toContain(t.socket.state);
          // One socket held at most (the client's, not yet dropped, not closed by the server), one timer.
          const held = t.sockets.filter((socket) => !socket.dropped && socket.readyState !== 3);
          expect(held.length).toBeLessThanOrEqual(1);
          expect(t.clock.pending).toBeLessThanOrEqual(1);
          if (t.socket.state === 'connected') expect(t.socket.socketId).not.toBeNull();
          if (['initialized', 'failed', 'disconnected'].includes(t.socket.state)) {
            expect(t.clock.pending).toBe(0);
            expect(held).toEqual([]);
          }
        }
        // Closing settles every wait and leaves nothing behind, even with a URL or a factory in flight.
        t.socket.disconnect();
        await flush();
        await Promise.all(waits);
        expect(settled).toHaveLength(waits.length);
        expect(t.clock.pending).toBe(0);
        expect(t.sockets.filter((socket) => !socket.dropped && socket.readyState !== 3)).toEqual([]);
        expect(t.logged.filter((line) => line.startsWith('error'))).toEqual([]);
      }),
      { seed: run.seed, numRuns: run.numRuns },
    );
    reportFuzz('reconnecting socket', run, n);
  }, 120_000);
}
