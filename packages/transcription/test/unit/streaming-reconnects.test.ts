import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReconnectPolicy, STABLE_SESSION_MS } from '../../src/streaming/reconnects.js';

/** A clock that only tells the time the test sets. */
function clock() {
  const c = { time: 0, now: () => c.time, setTimeout: () => 0, clearTimeout: () => {} };
  return c;
}

/** One attempt of a reconnect sequence: refused before Begin, or a session that lasted `ms` (with a final turn or not). */
type Attempt = { kind: 'refused' } | { kind: 'session'; ms: number; final: boolean };

const attempt = fc.oneof(
  fc.constant<Attempt>({ kind: 'refused' }),
  fc.record({
    kind: fc.constant('session' as const),
    ms: fc.oneof(fc.integer({ min: 0, max: STABLE_SESSION_MS - 1 }), fc.integer({ min: 0, max: 60_000 })),
    final: fc.boolean(),
  }),
);

describe('ReconnectPolicy', () => {
  it('gives up after maxAttempts sessions in a row that dropped right after Begin', () => {
    const c = clock();
    const policy = new ReconnectPolicy(3, c);
    const steps: string[] = [];
    for (let i = 0; i < 10 && steps.at(-1) !== 'give up'; i++) {
      policy.began();
      c.time += 20;
      steps.push(policy.dropped());
    }
    // The first drop ends a session that was not an attempt; the next three are the attempts.
    expect(steps).toEqual(['retry', 'backoff', 'backoff', 'give up']);
  });

  it('counts exactly the attempts since the last stable session (a final turn, or STABLE_SESSION_MS)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(attempt, { maxLength: 40 }), (max, attempts) => {
        const c = clock();
        const policy = new ReconnectPolicy(max, c);
        // The first session, stable, then dropped: the sequence of attempts starts.
        policy.began();
        c.time += STABLE_SESSION_MS;
        expect(policy.dropped()).toBe('retry');
        let failed = 0;
        for (const a of attempts) {
          let step: string;
          if (a.kind === 'refused') {
            step = policy.failed();
            failed += 1;
          } else {
            policy.began();
            c.time += a.ms;
            if (a.final) policy.progressed();
            step = policy.dropped();
            const stable = a.final || a.ms >= STABLE_SESSION_MS;
            failed = stable ? 0 : failed + 1;
            if (stable) expect(step).toBe('retry');
          }
          expect(step === 'give up').toBe(failed >= max);
          if (step === 'give up') return;
        }
      }),
    );
  });
});
