import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF } from '../../src/client/backoff.js';
import { ClientEventQueue } from '../../src/client/client-events.js';
import type { Clock } from '../../src/client/clock.js';
import { SendWindow } from '../../src/client/send-window.js';

describe('backoffDelay (full jitter)', () => {
  it('is uniform between 0 and the capped exponential step', () => {
    const top = () => 0.999999;
    expect(backoffDelay(1, DEFAULT_BACKOFF, top)).toBe(999);
    expect(backoffDelay(2, DEFAULT_BACKOFF, top)).toBe(1999);
    expect(backoffDelay(5, DEFAULT_BACKOFF, top)).toBe(15_999);
    expect(backoffDelay(6, DEFAULT_BACKOFF, top)).toBe(29_999);
    expect(backoffDelay(500, DEFAULT_BACKOFF, top)).toBe(29_999);
    expect(backoffDelay(3, DEFAULT_BACKOFF, () => 0)).toBe(0);
    expect(backoffDelay(3, DEFAULT_BACKOFF, () => 0.5)).toBe(2000);
  });

  it('keeps a floor the server asked for', () => {
    expect(backoffDelay(1, DEFAULT_BACKOFF, () => 0, 1000)).toBe(1000);
    expect(backoffDelay(4, DEFAULT_BACKOFF, () => 0.5, 1000)).toBe(4000);
  });

  it('honours custom options', () => {
    expect(backoffDelay(10, { baseDelayMs: 10, maxDelayMs: 100 }, () => 0.999)).toBe(99);
  });
});

describe('SendWindow', () => {
  const clock = {
    time: 0,
    advance(ms: number) {
      this.time += ms;
    },
  };

  it('allows 10 at once, then none until the first of them leaves the window', () => {
    clock.time = 0;
    const window = new SendWindow(10, 1000, () => clock.time);
    for (let i = 0; i < 10; i += 1) expect(window.take()).toBe(true);
    expect(window.take()).toBe(false);
    expect(window.waitMs()).toBe(1000);
    // A token bucket would have let one through here (10/s refill): the server counting a second would not.
    clock.advance(100);
    expect(window.take()).toBe(false);
    expect(window.waitMs()).toBe(900);
    clock.advance(900);
    for (let i = 0; i < 10; i += 1) expect(window.take()).toBe(true);
    expect(window.take()).toBe(false);
  });

  it('never holds more than the limit in any window, whatever the spacing', () => {
    clock.time = 0;
    const window = new SendWindow(10, 1000, () => clock.time);
    const sent: number[] = [];
    for (let t = 0; t < 5000; t += 37) {
      clock.time = t;
      while (window.take()) sent.push(t);
    }
    for (const start of sent)
      expect(sent.filter((t) => t >= start && t < start + 1000).length).toBeLessThanOrEqual(10);
    expect(sent.length).toBeGreaterThanOrEqual(45);
  });
});

/** Just enough clock for the queue: timers run when the test advances time. */
class FakeClock implements Clock {
  time = 0;
  private timers: { at: number; callback: () => void }[] = [];
  now = (): number => this.time;
  setTimeout = (callback: () => void, ms: number): unknown => {
    const timer = { at: this.time + ms, callback };
    this.timers.push(timer);
    return timer;
  };
  clearTimeout = (handle: unknown): void => {
    this.timers = this.timers.filter((t) => t !== handle);
  };
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const timer = this.timers.sort((a, b) => a.at - b.at)[0];
      if (!timer || timer.at > end) break;
      this.timers.shift();
      this.time = timer.at;
      timer.callback();
    }
    this.time = end;
  }
}

describe('ClientEventQueue', () => {
  function setup(limit = 100) {
    const clock = new FakeClock();
    const sent: string[] = [];
    const ready = new Set<string>(['a']);
    const queue = new ClientEventQueue(
      limit,
      clock,
      (c) => ready.has(c),
      (c, e) => {
        sent.push(`${c}:${e}`);
        return true;
      },
    );
    return { clock, sent, ready, queue };
  }

  it('sends 10 at once, then the rest when the window (1.1 s) has moved past them', () => {
    const { clock, sent, queue } = setup();
    for (let i = 0; i < 15; i += 1) expect(queue.push('a', `client-${i}`, {})).toBe(true);
    expect(sent).toHaveLength(10);
    clock.advance(1099);
    expect(sent).toHaveLength(10);
    clock.advance(1);
    expect(sent).toHaveLength(15);
    expect(sent.at(-1)).toBe('a:client-14');
  });

  it('holds events for a channel that is not subscribed, without blocking others', () => {
    const { sent, ready, queue } = setup();
    queue.push('b', 'client-1', {});
    queue.push('a', 'client-2', {});
    expect(sent).toEqual(['a:client-2']);
    ready.add('b');
    queue.pump();
    expect(sent).toEqual(['a:client-2', 'b:client-1']);
  });

  it('refuses new events when the buffer is full, and forgets a left channel', () => {
    const { sent, ready, queue } = setup(2);
    ready.clear();
    expect(queue.push('a', 'client-1', {})).toBe(true);
    expect(queue.push('b', 'client-2', {})).toBe(true);
    expect(queue.push('a', 'client-3', {})).toBe(false);
    queue.forget('b');
    expect(queue.size).toBe(1);
    ready.add('a');
    queue.pump();
    expect(sent).toEqual(['a:client-1']);
  });
});
