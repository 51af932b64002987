/**
 * `@x/core/socket`'s small parts with a hand-driven clock: backoff bounds, the timer slot, the emitter and
 * the choice of WebSocket. The reconnecting socket: socket-reconnecting.test.ts (and, over `ws`,
 * test/integration/socket-lifecycle.test.ts).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import {
  backoffDelay,
  DEFAULT_BACKOFF,
  Emitter,
  type SocketConstructor,
  Timer,
  webSocketFactory,
  webSocketFactoryWithHeaders,
} from '../../src/socket/index.js';
import { FakeClock } from '../helpers/socket-fakes.js';

describe('backoffDelay', () => {
  it('stays within [floor, max(floor, min(max, base * 2^(attempt-1)))) for any attempt, options and draw', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -5, max: 10_000 }),
        fc.integer({ min: 1, max: 60_000 }),
        fc.integer({ min: 1, max: 600_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.integer({ min: 0, max: 5000 }),
        (attempt, baseDelayMs, maxDelayMs, draw, floorMs) => {
          const delay = backoffDelay(attempt, { baseDelayMs, maxDelayMs }, () => draw, floorMs);
          const step = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30));
          expect(Number.isInteger(delay)).toBe(true);
          expect(delay).toBeGreaterThanOrEqual(floorMs);
          expect(delay).toBeLessThan(Math.max(floorMs + 1, step));
        },
      ),
    );
  });

  it('doubles the step per attempt up to the cap (default 1 s to 30 s)', () => {
    const top = () => 0.999999;
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelay(n, DEFAULT_BACKOFF, top))).toEqual([
      999, 1999, 3999, 7999, 15_999, 29_999, 29_999,
    ]);
    expect(backoffDelay(1, DEFAULT_BACKOFF, () => 0, 1000)).toBe(1000);
  });
});

describe('Timer', () => {
  it('holds one callback: setting it again replaces the pending one; clear cancels', () => {
    const clock = new FakeClock();
    const timer = new Timer(clock);
    const fired: string[] = [];
    timer.set(100, () => fired.push('a'));
    timer.set(50, () => fired.push('b'));
    expect(clock.pending).toBe(1);
    expect(timer.pending).toBe(true);
    clock.advance(100);
    expect(fired).toEqual(['b']);
    expect(timer.pending).toBe(false);
    timer.set(10, () => fired.push('c'));
    timer.clear();
    clock.advance(100);
    expect(fired).toEqual(['b']);
    expect(clock.pending).toBe(0);
  });

  it("waits out a delay past setTimeout's range in steps, never one past it: once, on time; Infinity never", () => {
    const clock = new FakeClock();
    const timer = new Timer(clock);
    const fired: number[] = [];
    const limit = 2 ** 31 - 1;
    timer.set(2 * limit + 5, () => fired.push(clock.time));
    expect(clock.nextIn).toBe(limit);
    clock.advance(2 * limit + 4);
    expect(fired).toEqual([]);
    expect(timer.pending).toBe(true);
    clock.advance(10);
    expect(fired).toEqual([2 * limit + 5]);
    expect(timer.pending).toBe(false);
    timer.set(Number.POSITIVE_INFINITY, () => fired.push(clock.time));
    clock.advance(10 * limit);
    expect(fired).toHaveLength(1);
    expect(timer.pending).toBe(true);
    timer.clear();
    expect(clock.pending).toBe(0);
  });
});

describe('Emitter', () => {
  it('calls catch-all listeners first, then named ones, each once per emit, in the order bound', () => {
    const seen: string[] = [];
    const events = new Emitter<{ turn: [text: string, final: boolean]; end: [] }>(() => {});
    events.bindGlobal((event, ...args) => seen.push(`all ${event} ${args.join(',')}`));
    events.bind('turn', (text, final) => seen.push(`1 ${text} ${final}`));
    events.bind('turn', (text) => seen.push(`2 ${text}`));
    events.emit('turn', 'hi', true);
    events.emit('end');
    expect(seen).toEqual(['all turn hi,true', '1 hi true', '2 hi', 'all end ']);
    expectTypeOf(events.emit).parameter(0).toEqualTypeOf<'turn' | 'end'>();
  });

  it('logs a throwing listener with the event and where, and still calls the others', () => {
    const logged: unknown[][] = [];
    const events = new Emitter((...line) => logged.push(line), ' on orders');
    const after: number[] = [];
    events.bind('x', () => {
      throw new Error('boom');
    });
    events.bind('x', () => after.push(1));
    events.emit('x');
    expect(after).toEqual([1]);
    expect(logged).toEqual([['error', 'a "x" callback on orders threw', new Error('boom')]]);
  });

  it('a listener that unbinds itself or binds another does not change the dispatch under way', () => {
    const events = new Emitter(() => {});
    const seen: string[] = [];
    const once = () => {
      seen.push('once');
      events.unbind('x', once);
      events.bind('x', () => seen.push('late'));
    };
    events.bind('x', once);
    events.emit('x');
    events.emit('x');
    expect(seen).toEqual(['once', 'late']);
    events.unbind('x');
    events.emit('x');
    expect(seen).toEqual(['once', 'late']);
    const global = () => seen.push('global');
    events.bindGlobal(global).unbindGlobal(global).emit('x');
    events
      .bind('x', () => seen.push('again'))
      .unbind()
      .emit('x');
    expect(seen).toEqual(['once', 'late']);
  });
});

describe('webSocketFactory', () => {
  const globals = globalThis as { WebSocket?: unknown };
  const saved = globals.WebSocket;
  afterEach(() => {
    globals.WebSocket = saved;
  });

  /** A WebSocket class that records how it was built. */
  function recording(made: unknown[][]): SocketConstructor {
    return class {
      constructor(...args: unknown[]) {
        made.push(args);
      }
    } as unknown as SocketConstructor;
  }

  it("prefers the runtime's WebSocket and loads the package's only without one", async () => {
    const native: unknown[][] = [];
    const loaded: unknown[][] = [];
    let loads = 0;
    const load = async () => {
      loads += 1;
      return recording(loaded);
    };
    globals.WebSocket = recording(native);
    (await webSocketFactory(load))('ws://a/');
    expect([native, loads]).toEqual([[['ws://a/']], 0]);
    globals.WebSocket = undefined;
    (await webSocketFactory(load))('ws://b/');
    expect([loaded, loads]).toEqual([[['ws://b/']], 1]);
    await expect(webSocketFactory(async () => undefined)).rejects.toThrow(/no WebSocket implementation/);
  });

  it("with headers: always the package's implementation, given the headers; never the runtime's", async () => {
    const loaded: unknown[][] = [];
    const native = recording([]);
    globals.WebSocket = native;
    const headers = { Authorization: 'sk_secret_value' };
    (await webSocketFactoryWithHeaders(async () => recording(loaded), headers))('wss://s/v3/ws');
    expect(loaded).toEqual([['wss://s/v3/ws', { headers }]]);
    // A browser bundle's side of the import map gives the native one: refused, without the header's value.
    const refused = webSocketFactoryWithHeaders(async () => native, headers);
    await expect(refused).rejects.toThrow(/cannot send headers/);
    await expect(refused).rejects.not.toThrow(/sk_secret_value/);
    await expect(webSocketFactoryWithHeaders(async () => undefined, headers)).rejects.toThrow(/headers/);
  });
});
