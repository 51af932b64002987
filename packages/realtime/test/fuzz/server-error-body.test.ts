/**
 * `errorInBody`, the check that turns soketi's status-200 error answers back into errors, fuzzed: any text
 * (JSON of any shape, truncated, not JSON) is classified without throwing; a success-shaped body (any object
 * without a string `error` next to a 4xx/5xx `code`) is never taken for an error; every `{error, code}` with
 * a 4xx/5xx code, whatever else it holds, is one, with that status.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { errorInBody } from '../../src/server/internal/error-body.js';

const successBody = fc
  .dictionary(fc.string(), fc.jsonValue(), { maxKeys: 6 })
  .filter((body) => !(typeof body.error === 'string' && typeof body.code === 'number'));

for (const run of fuzzRuns(500)) {
  it(`server error bodies ${run.label}`, () => {
    let n = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string().map((text) => ({ text, kind: 'text' as const })),
          fc.jsonValue().map((value) => ({ text: JSON.stringify(value), kind: 'json' as const })),
          successBody.map((body) => ({ text: JSON.stringify(body), kind: 'success' as const })),
          fc
            .record({
              error: fc.string(),
              code: fc.integer({ min: 400, max: 599 }),
              extra: fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
            })
            .map(({ error, code, extra }) => ({
              text: JSON.stringify({ ...extra, error, code }),
              kind: 'error' as const,
              code,
            })),
          fc
            .record({ error: fc.string(), code: fc.integer().filter((c) => c < 400 || c > 599) })
            .map((body) => ({ text: JSON.stringify(body), kind: 'success' as const })),
        ),
        fc.nat({ max: 40 }),
        (input, cut) => {
          n++;
          const found = errorInBody(input.text);
          if (input.kind === 'success') expect(found).toBeUndefined();
          if (input.kind === 'error') expect(found).toEqual({ status: input.code });
          // Truncated text never throws either.
          expect(() => errorInBody(input.text.slice(0, cut))).not.toThrow();
        },
      ),
      { seed: run.seed, numRuns: run.numRuns },
    );
    reportFuzz('server error bodies', run, n);
  });
}
