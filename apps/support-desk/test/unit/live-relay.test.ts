import { describe, expect, it } from 'vitest';
import { fitEvent, MAX_EVENT_BYTES, type RelayTimers, TurnRelay } from '../../src/server/live/relay.js';
import type { LiveTurnEvent } from '../../src/shared/api.js';

/** A clock the test moves by hand, with the timers due at each time. */
function manualTimers() {
  let now = 0;
  let timers: { at: number; run: () => void; id: number }[] = [];
  let ids = 0;
  const api: RelayTimers = {
    now: () => now,
    setTimeout: (run, ms) => {
      const id = ++ids;
      timers.push({ at: now + ms, run, id });
      return id;
    },
    clearTimeout: (id) => {
      timers = timers.filter((t) => t.id !== id);
    },
  };
  return {
    api,
    advance(ms: number) {
      now += ms;
      const due = timers.filter((t) => t.at <= now);
      timers = timers.filter((t) => t.at > now);
      for (const t of due) t.run();
    },
    pending: () => timers.length,
  };
}

const turn = (turn_order: number, text: string, end_of_turn = false): LiveTurnEvent => ({
  callId: 'c',
  turn_order,
  end_of_turn,
  turn_is_formatted: false,
  text,
});

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

describe('TurnRelay', () => {
  it('sends finals at once and at most one partial per interval, the latest', async () => {
    const clock = manualTimers();
    const pushed: LiveTurnEvent[] = [];
    const relay = new TurnRelay(async (e) => void pushed.push(e), 250, clock.api);
    relay.partial(turn(0, 'a'));
    relay.partial(turn(0, 'a b'));
    relay.partial(turn(0, 'a b c'));
    clock.advance(100);
    relay.partial(turn(0, 'a b c d'));
    clock.advance(150);
    relay.final(turn(0, 'a b c d e', true));
    relay.partial(turn(1, 'f'));
    clock.advance(250);
    await settle();
    expect(pushed.map((e) => e.text)).toEqual(['a', 'a b c d', 'a b c d e', 'f']);
  });

  it('drops the waiting partial of a turn that became final, and pushes in order', async () => {
    const clock = manualTimers();
    const pushed: string[] = [];
    let release!: () => void;
    const slow = new Promise<void>((resolve) => {
      release = resolve;
    });
    const relay = new TurnRelay(
      async (e) => {
        if (pushed.length === 0) await slow;
        pushed.push(e.text);
      },
      250,
      clock.api,
    );
    relay.partial(turn(0, 'x'));
    relay.partial(turn(0, 'x y'));
    relay.final(turn(0, 'x y z', true));
    relay.final(turn(1, 'w', true));
    expect(clock.pending()).toBe(0);
    release();
    await settle();
    expect(pushed).toEqual(['x', 'x y z', 'w']);
  });

  it('pushes nothing after close, and close waits for the pushes begun', async () => {
    const clock = manualTimers();
    const pushed: string[] = [];
    const relay = new TurnRelay(async (e) => void pushed.push(e.text), 250, clock.api);
    relay.final(turn(0, 'a', true));
    relay.partial(turn(1, 'b'));
    relay.partial(turn(1, 'b c'));
    await relay.close();
    relay.final(turn(1, 'b c d', true));
    clock.advance(1000);
    await settle();
    expect(pushed).toEqual(['a', 'b']);
  });
});

describe('fitEvent', () => {
  it('keeps an event within Pusher’s size by dropping the start of its text', () => {
    const long = turn(0, `${'é'.repeat(6000)} the latest words`);
    const fitted = fitEvent(long);
    expect(new TextEncoder().encode(JSON.stringify(fitted)).length).toBeLessThanOrEqual(MAX_EVENT_BYTES);
    expect(fitted.text.startsWith('…')).toBe(true);
    expect(fitted.text.endsWith('the latest words')).toBe(true);
    const short = turn(0, 'short');
    expect(fitEvent(short)).toBe(short);
  });
});
