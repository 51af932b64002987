/**
 * Fuzzing the surfaces the watchlist, authorized-connection, leave-delay and count-throttle work added: signins
 * whose correctly signed user data carries a hostile `watchlist` (anything JSON, huge lists, duplicates,
 * non-string ids), and the new settings with any value. A signin either succeeds, and then every watchlist
 * event is well formed and names only watched ids, or closes with 4009 (1009 when the frame is over the size
 * limit); a control watcher keeps hearing its watched user come and go. A setting is either taken or refused with
 * an error naming it; nothing else may throw.
 */
import fc from 'fast-check';
import PusherServer from 'pusher';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import {
  createRealtimeEmulator,
  type RealtimeEmulatorOptions,
  type Sandbox,
  startSandbox,
} from '../../src/index.js';
import { type Frame, stillAlive, TestSocket, waitFor } from '../helpers/realtime.js';

const APP = { appId: '990', key: 'fuzz-watch-key', secret: 'fuzz-watch-secret', watchlistEvents: true };
let box: Sandbox<false>;
let signer: PusherServer;
let control: TestSocket;
let fuzzed = 0;

async function signin(id: string, extra: Record<string, unknown>): Promise<TestSocket> {
  const s = await TestSocket.connect(box.realtime!.wsUrl, APP.key);
  const { auth, user_data } = signer.authenticateUser(s.socketId, { id, ...extra } as never);
  s.send({ event: 'pusher:signin', data: { auth, user_data } });
  return s;
}

beforeAll(async () => {
  box = await startSandbox({ store: false, realtime: { apps: [APP], maxWatchlistSize: 20 } });
  signer = new PusherServer({ ...APP, host: '127.0.0.1' });
  control = await signin('control', { watchlist: ['target'] });
  await control.next('pusher:signin_success');
});

afterAll(async () => {
  control?.close();
  await box?.close();
});

/** The control watcher hears `target` come online and go offline, exactly once each. */
async function controlStillHears(): Promise<void> {
  const events = () =>
    control.frames
      .filter((f) => f.event === 'pusher_internal:watchlist_events')
      .map((f) => f.data.events[0].name);
  const before = events().length;
  const target = await signin('target', {});
  await target.next('pusher:signin_success');
  await waitFor(() => events().length === before + 1);
  target.close();
  await waitFor(() => events().length === before + 2);
  expect(events().slice(before)).toEqual(['online', 'offline']);
}

const id = fc.oneof(
  fc.constantFrom('target', 'control', 'fuzzer', '__proto__', 'constructor', ''),
  fc.string({ maxLength: 8 }),
  fc.string({ minLength: 190, maxLength: 220 }),
);
const watchlist = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.array(id, { maxLength: 40 }),
  fc.array(fc.constantFrom('target', 'fuzzer'), { maxLength: 300 }),
  fc.array(fc.oneof(id, fc.integer(), fc.double(), fc.constant(null), fc.object({ maxDepth: 1 })), {
    maxLength: 30,
  }),
  fc.integer({ min: 0, max: 5000 }).map((n) => Array.from({ length: n }, (_, i) => `u${i % 25}`)),
);

function checkWatchlistFrame(f: Frame, watched: unknown): void {
  expect(f.channel).toBeUndefined();
  const events = f.data.events as { name: string; user_ids: unknown[] }[];
  expect(Array.isArray(events)).toBe(true);
  for (const e of events) {
    expect(['online', 'offline']).toContain(e.name);
    expect(e.user_ids.length).toBeGreaterThan(0);
    for (const userId of e.user_ids) {
      expect(typeof userId).toBe('string');
      expect((watched as unknown[]).map(String)).toContain(userId);
    }
  }
}

describe('fuzz: signins with hostile watchlists', () => {
  const surface = 'realtime signin watchlist';
  for (const run of fuzzRuns(40)) {
    it(`${surface} ${run.label}`, async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(watchlist, async (list) => {
          n++;
          fuzzed++;
          const s = await signin(`fuzzer-${fuzzed % 3}`, { watchlist: list });
          const answer = await Promise.race([
            s.next('pusher:signin_success').then(() => 'signed-in' as const),
            s.closed.then((c) => c.code),
          ]);
          if (answer === 'signed-in') {
            // A round trip: the initial watchlist event (sent right after signin_success) is in by its pong.
            await stillAlive(s);
            for (const f of s.frames.filter((x) => x.event === 'pusher_internal:watchlist_events')) {
              checkWatchlistFrame(f, list);
            }
          } else {
            expect([4009, 1009]).toContain(answer);
          }
          s.close();
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz(surface, run, n);
      await controlStillHears();
    });
  }
});

const SETTINGS = [
  'subscriptionCountThrottle',
  'authorizedConnectionTimeoutMs',
  'maxWatchlistSize',
  'subscriptionCountThrottle.largeChannelSubscribers',
  'subscriptionCountThrottle.intervalMs',
  'webhooks.leaveDelayMs',
  'webhooks.maxBatchEvents',
  'authorizedConnections',
  'watchlistEvents',
] as const;

function optionsWith(name: (typeof SETTINGS)[number], value: unknown): RealtimeEmulatorOptions {
  const v = value as never;
  switch (name) {
    case 'subscriptionCountThrottle.largeChannelSubscribers':
      return { subscriptionCountThrottle: { largeChannelSubscribers: v } };
    case 'subscriptionCountThrottle.intervalMs':
      return { subscriptionCountThrottle: { intervalMs: v } };
    case 'webhooks.leaveDelayMs':
      return { webhooks: { leaveDelayMs: v } };
    case 'webhooks.maxBatchEvents':
      return { webhooks: { maxBatchEvents: v } };
    case 'authorizedConnections':
    case 'watchlistEvents':
      return { apps: [{ appId: '1', key: 'k', secret: 's', [name]: v }] };
    default:
      return { [name]: v };
  }
}

describe('fuzz: the new settings', () => {
  // Found by the property below (X_FUZZ_SEED=1188597206): String() of this value throws, and the error about
  // the setting became "Cannot convert object to primitive value".
  it('names the setting even when its value cannot be turned into a string', () => {
    for (const value of [{ toString: [] }, Object.create(null)]) {
      expect(() =>
        createRealtimeEmulator({ subscriptionCountThrottle: { largeChannelSubscribers: value } as never }),
      ).toThrow(/largeChannelSubscribers must be a positive integer, got \[object Object\]/);
      expect(() => createRealtimeEmulator({ webhooks: { leaveDelayMs: value } as never })).toThrow(
        /leaveDelayMs must be a non-negative integer/,
      );
    }
  });

  const surface = 'realtime settings';
  for (const run of fuzzRuns(300)) {
    it(`${surface} ${run.label}`, async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...SETTINGS), fc.anything(), async (name, value) => {
          n++;
          let emulator: ReturnType<typeof createRealtimeEmulator> | undefined;
          try {
            emulator = createRealtimeEmulator(optionsWith(name, value));
          } catch (err) {
            expect(err).toBeInstanceOf(Error);
            expect(['RangeError', 'TypeError']).toContain((err as Error).name);
            expect((err as Error).message).toContain(name.split('.').at(-1));
            return;
          }
          await emulator.close();
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz(surface, run, n);
    });
  }
});
