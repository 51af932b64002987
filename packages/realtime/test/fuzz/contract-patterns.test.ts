/**
 * Contract pattern keys and schema results, arbitrary. Keys and names are drawn from characters that mean
 * something to regular expressions and to the pattern syntax (`{`, `}`, `.`, `*`, `$`, `\`…): a key
 * matches a name exactly when the name is the key with each `{…}` replaced by some text (checked against
 * a brute-force reference). Whatever a schema returns or throws, `check` answers null or bounded issues,
 * never throws, never rejects, and never quotes the payload.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { type ContractIssue, defineContract, type StandardSchemaV1 } from '../../src/index.js';

const char = fc.constantFrom('a', 'b', '-', '{', '}', '.', '*', '$', '\\', '(', '[', '^', '|', '?', '+');
const text = (max: number) => fc.array(char, { maxLength: max }).map((chars) => chars.join(''));
const refuse = {
  '~standard': { version: 1, vendor: 'fuzz', validate: () => ({ issues: [{ message: 'hit' }] }) },
} as unknown as StandardSchemaV1;

/** Whether `name` is `parts` joined by any texts: tried by brute force over every split. */
function reference(parts: string[], name: string): boolean {
  const [first = '', ...rest] = parts;
  if (!name.startsWith(first)) return false;
  if (rest.length === 0) return name === first;
  const after = name.slice(first.length);
  for (let skip = 0; skip <= after.length; skip++)
    if (after.slice(skip).startsWith(rest[0] as string) && reference(rest, after.slice(skip))) return true;
  return false;
}

for (const run of fuzzRuns(2000)) {
  it(`pattern keys match by {…} only ${run.label}`, () => {
    let n = 0;
    fc.assert(
      fc.property(text(10), text(12), (key, name) => {
        n++;
        const matched = defineContract({ [key]: { e: refuse } }).check(name, 'e', 1) !== null;
        expect(matched).toBe(reference(key.split(/\{[^}]*\}/), name));
      }),
      { seed: run.seed, numRuns: run.numRuns },
    );
    reportFuzz('contract pattern keys', run, n);
  });
}

const SECRET = 'fuzz-secret-9f1';
const anything = fc.anything({ withObjectString: true, withNullPrototype: true, maxDepth: 3 });
/** What a misbehaving schema may return: anything, anything shaped like issues, or a throw. */
const result = fc.oneof(
  anything,
  fc.record({ issues: anything }),
  fc.record({
    issues: fc.array(fc.record({ message: anything, path: fc.oneof(anything, fc.array(anything)) }), {
      maxLength: 30,
    }),
  }),
);

for (const run of fuzzRuns(300)) {
  it(`check answers whatever a schema returns ${run.label}`, async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(result, fc.boolean(), fc.boolean(), async (answer, async, throws) => {
        n++;
        const validate = () => {
          if (throws) throw new Error(SECRET);
          return async ? Promise.resolve(answer) : answer;
        };
        const contract = defineContract({
          ch: { e: { '~standard': { version: 1, vendor: 'f', validate } } as unknown as StandardSchemaV1 },
        });
        const verdict = (await contract.check('ch', 'e', { secret: SECRET })) as ContractIssue[] | null;
        if (verdict === null) return;
        expect(verdict.length).toBeGreaterThan(0);
        expect(verdict.length).toBeLessThanOrEqual(20);
        for (const issue of verdict) {
          expect(typeof issue.path).toBe('string');
          expect(typeof issue.message).toBe('string');
          expect(issue.path.length + issue.message.length).toBeLessThanOrEqual(402);
        }
        expect(JSON.stringify(verdict)).not.toContain(SECRET);
      }),
      { seed: run.seed, numRuns: run.numRuns },
    );
    reportFuzz('contract schema results', run, n);
  });
}
