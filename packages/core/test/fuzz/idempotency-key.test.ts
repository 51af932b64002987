import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import {
  IdempotencyConflictError,
  idempotencyKeyIssue,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  MemoryIdempotencyStore,
  runIdempotent,
} from '../../src/index.js';

/**
 * The idempotency key as callers pass it: any value gets an answer (never a throw), the issue names
 * `idempotencyKey` and never quotes the key (it may carry user data), exactly the documented keys are
 * accepted, and every accepted key works end to end on the memory store (one send per key, a second
 * fingerprint refused).
 */
const anyValue = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({
    unit: fc.constantFrom('a', ' ', '\n', '\u0000', '\u007f', '\uD800', '\uDC00', 'é', '😀'),
    maxLength: 20,
  }),
  fc.anything(),
);

function expectedValid(key: unknown): boolean {
  return (
    typeof key === 'string' &&
    key.trim() !== '' &&
    key.length <= MAX_IDEMPOTENCY_KEY_LENGTH &&
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the rule under test.
    !/[\u0000-\u001f\u007f]/.test(key) &&
    new TextDecoder().decode(new TextEncoder().encode(key)) === key
  );
}

describe('fuzz: idempotencyKey', () => {
  for (const run of fuzzRuns(400)) {
    it(`accepts exactly the documented keys and never echoes one, ${run.label}`, () => {
      let inputs = 0;
      fc.assert(
        fc.property(anyValue, (key) => {
          inputs++;
          const issue = idempotencyKeyIssue(key);
          expect(issue === undefined).toBe(expectedValid(key));
          if (issue) {
            expect(issue.path).toBe('idempotencyKey');
            if (typeof key === 'string' && key.trim().length >= 3) expect(issue.message).not.toContain(key);
          }
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('idempotencyKeyIssue', run, inputs);
    });
  }

  for (const run of fuzzRuns(100)) {
    it(`every accepted key sends once and refuses other parameters, ${run.label}`, async () => {
      let inputs = 0;
      await fc.assert(
        fc.asyncProperty(anyValue.filter(expectedValid) as fc.Arbitrary<string>, async (key) => {
          inputs++;
          const store = new MemoryIdempotencyStore();
          let sends = 0;
          const call = {
            store,
            key,
            sent: 'u',
            send: async () => ({ id: `id-${++sends}`, value: sends }),
            recover: async () => [],
            fetch: async () => -1,
          };
          await expect(runIdempotent({ ...call, fingerprint: 1 })).resolves.toBe(1);
          await expect(runIdempotent({ ...call, fingerprint: 1 })).resolves.toBe(-1);
          await expect(runIdempotent({ ...call, fingerprint: 2 })).rejects.toBeInstanceOf(
            IdempotencyConflictError,
          );
          expect(sends).toBe(1);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('runIdempotent keys', run, inputs);
    });
  }
});
