import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  MAX_FIRST_POLL_MS,
  MIN_FIRST_POLL_MS,
  PRIOR_MS,
  PRIOR_MS_PER_AUDIO_SECOND,
  ProcessingEstimate,
} from '../../src/waiting/estimate.js';
import { Notifications } from '../../src/waiting/notifications.js';

/**
 * Jobs that each take `trueMs`, polled as `waitUntilDone` does (first at the estimate, then backing off):
 * the observations the estimate learns from, with no clock.
 */
function simulate(estimate: ProcessingEstimate, trueMs: (i: number) => number, jobs: number, audio?: number) {
  let polls = 0;
  for (let i = 0; i < jobs; i++) {
    const truth = trueMs(i);
    const expected = estimate.firstPollMs(audio);
    let at = expected;
    let notDone = 0;
    for (let miss = 1; at < truth; miss++) {
      polls++;
      notDone = at;
      at += backoffMs(expected, miss, { minMs: 1_000, maxMs: 15_000, random: () => 0.5 });
    }
    polls++;
    estimate.observe({ notDoneMs: notDone, doneByMs: at, audioSeconds: audio });
  }
  return polls;
}

describe('ProcessingEstimate', () => {
  it('starts from the priors, within its bounds', () => {
    const e = new ProcessingEstimate();
    expect(e.firstPollMs()).toBe(PRIOR_MS);
    expect(e.firstPollMs(60)).toBe(60 * PRIOR_MS_PER_AUDIO_SECOND);
    expect(e.firstPollMs(0.001)).toBe(MIN_FIRST_POLL_MS);
    expect(e.firstPollMs(10 * 3600)).toBe(MAX_FIRST_POLL_MS);
  });

  it('a hit before the estimate lowers it, a miss past it raises it, a late poll leaves it', () => {
    const e = new ProcessingEstimate();
    const start = e.firstPollMs();
    e.observe({ notDoneMs: 0, doneByMs: start - 1 });
    const lower = e.firstPollMs();
    expect(lower).toBeLessThan(start);
    e.observe({ notDoneMs: lower + 1, doneByMs: lower * 3 });
    const higher = e.firstPollMs();
    expect(higher).toBeGreaterThan(lower);
    // Not done at 0, done by long after: says nothing about where the estimate stands.
    e.observe({ notDoneMs: 0, doneByMs: higher * 10 });
    expect(e.firstPollMs()).toBe(higher);
  });

  it('ignores observations that are not an interval', () => {
    const e = new ProcessingEstimate();
    for (const [notDoneMs, doneByMs] of [
      [5, 5],
      [9, 1],
      [Number.NaN, 1],
      [0, Number.POSITIVE_INFINITY],
    ] as const)
      e.observe({ notDoneMs, doneByMs });
    expect(e.firstPollMs()).toBe(PRIOR_MS);
  });

  it.each([400, 1_700, 12_000, 90_000])('jobs of %i ms: the first poll settles near them', (truth) => {
    const e = new ProcessingEstimate();
    simulate(e, () => truth, 60);
    const settled = e.firstPollMs();
    expect(settled).toBeGreaterThanOrEqual(Math.max(MIN_FIRST_POLL_MS, truth * 0.8));
    expect(settled).toBeLessThanOrEqual(Math.max(MIN_FIRST_POLL_MS, truth) * 1.5);
    // Once settled, most jobs need one poll: at most 2 polls a job on average over the next 40.
    expect(simulate(e, () => truth, 40)).toBeLessThanOrEqual(80);
  });

  it('learns the time per second of audio apart from the time per job', () => {
    const e = new ProcessingEstimate();
    simulate(e, () => 30_000, 60, 120); // 250 ms per audio second
    expect(e.firstPollMs(120)).toBeGreaterThanOrEqual(24_000);
    expect(e.firstPollMs(120)).toBeLessThanOrEqual(45_000);
    expect(Math.abs(e.firstPollMs(240) - 2 * e.firstPollMs(120))).toBeLessThanOrEqual(1);
  });
});

describe('backoffMs', () => {
  it('grows with each miss, within [minMs, maxMs]', () => {
    const options = { minMs: 1_000, maxMs: 15_000, random: () => 0.5 };
    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((m) => backoffMs(20_000, m, options));
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1]!);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(1_000);
    expect(delays.at(-1)).toBe(15_000);
    for (const r of [0, 0.999]) {
      const d = backoffMs(100, 1, { minMs: 1_000, maxMs: 2_000, random: () => r });
      expect(d).toBe(1_000);
    }
  });
});

describe('Notifications', () => {
  it('wakes every wait on the id once; others are untouched', () => {
    const n = new Notifications();
    const woken: string[] = [];
    n.subscribe('a', () => woken.push('a1'));
    n.subscribe('a', () => woken.push('a2'));
    const off = n.subscribe('b', () => woken.push('b'));
    expect(n.notify('a')).toBe(true);
    expect(n.notify('a')).toBe(false);
    off();
    expect(n.notify('b')).toBe(false);
    expect(woken).toEqual(['a1', 'a2']);
  });

  it('a notification before the wait began wakes it as it subscribes', async () => {
    const n = new Notifications();
    expect(n.notify('early')).toBe(false);
    let woken = 0;
    n.subscribe('early', () => woken++);
    await Promise.resolve();
    expect(woken).toBe(1);
    // Used up: a second wait on the same id waits for a new notification.
    n.subscribe('early', () => woken++);
    await Promise.resolve();
    expect(woken).toBe(1);
  });

  it('remembers at most 1,000 early ids, oldest dropped first', async () => {
    const n = new Notifications();
    for (let i = 0; i <= 1_000; i++) n.notify(`id-${i}`);
    let oldest = 0;
    let newest = 0;
    n.subscribe('id-0', () => oldest++);
    n.subscribe('id-1000', () => newest++);
    await Promise.resolve();
    expect([oldest, newest]).toEqual([0, 1]);
  });
});
