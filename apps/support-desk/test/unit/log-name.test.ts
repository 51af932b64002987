import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { logName } from '../../src/server/calls/registry.js';

/** Line ends and bidirectional controls that would forge or disguise a log line in some viewer. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding an escape character is the point.
const UNSAFE = /[\n\r\u0085\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\u001b]/;

describe("a call's name in the logs", () => {
  it('escapes line separators and bidirectional overrides that JSON leaves raw, and still reads back', () => {
    const name = 'refund\u2028INFO call ok\u202Egnp.exe\u2066x\u0085';
    const logged = logName({ name });
    expect(logged).not.toMatch(UNSAFE);
    expect(logged).toContain('\\u2028');
    expect(logged).toContain('\\u202e');
    expect(JSON.parse(logged)).toBe(name);
  });

  for (const run of fuzzRuns(300)) {
    it(`quotes any name on one safe line that parses back to the name (${run.label})`, () => {
      let inputs = 0;
      const unit = fc.oneof(
        fc.constantFrom('\n', '\u2028', '\u2029', '\u202e', '\u2067', '\u0085', '\u001b', '"', '\\'),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      );
      fc.assert(
        fc.property(fc.string({ unit, maxLength: 40 }), (name) => {
          inputs++;
          const logged = logName({ name });
          expect(logged).not.toMatch(UNSAFE);
          expect(JSON.parse(logged)).toBe(name);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('desk log name', run, inputs);
    });
  }
});
