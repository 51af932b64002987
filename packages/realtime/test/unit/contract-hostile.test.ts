/**
 * A contract's run-time check against schemas that misbehave and names that look like something else.
 * `check` promises never to throw, never to reject, to answer a refusal as issues, and never to quote the
 * payload; pattern keys mean only what `{…}` says.
 */
import { describe, expect, it } from 'vitest';
import { type ContractIssue, defineContract, type StandardSchemaV1 } from '../../src/index.js';

const SECRET = 'payload-secret-4242';
const schema = (validate: (value: unknown) => unknown) =>
  ({ '~standard': { version: 1, vendor: 'test', validate } }) as unknown as StandardSchemaV1;
const refuse = schema(() => ({ issues: [{ message: 'refused' }] }));

const hostile: Record<string, (value: unknown) => unknown> = {
  'returns undefined': () => undefined,
  'returns null': () => null,
  'returns a number': () => 7,
  'issues not an array': () => ({ issues: 'bad' }),
  'a null path element': () => ({ issues: [{ message: 'm', path: [null, { key: null }] }] }),
  'a getter that throws the value': () => ({
    get issues(): never {
      throw new Error(`bad ${SECRET}`);
    },
  }),
  'a message whose toString throws': () => ({
    issues: [
      {
        message: {
          toString: () => {
            throw new Error(SECRET);
          },
        },
      },
    ],
  }),
  'a huge path': () => ({ issues: [{ message: 'm', path: Array.from({ length: 100_000 }, (_, i) => i) }] }),
  'a cyclic path element': () => {
    const key: Record<string, unknown> = {};
    key.key = key;
    return { issues: [{ message: 'm', path: [key] }] };
  },
  'many long issues': () => ({
    issues: Array.from({ length: 1000 }, () => ({ message: 'x'.repeat(1000) })),
  }),
  throws: () => {
    throw new TypeError(`cannot read ${SECRET}`);
  },
  'throws a non-error': () => {
    throw SECRET;
  },
};

const verdicts = async (validate: (value: unknown) => unknown) => {
  const contract = defineContract({ 'private-{id}': { e: schema(validate) } });
  const asyncContract = defineContract({
    'private-{id}': { e: schema(async (value) => validate(value)) },
  });
  const sync = contract.check('private-1', 'e', { secret: SECRET });
  const later = asyncContract.check('private-1', 'e', { secret: SECRET });
  expect(later).toBeInstanceOf(Promise);
  return [sync as ContractIssue[] | null, await later];
};

describe('a misbehaving schema', () => {
  it.each(Object.keys(hostile))(
    '%s: a refusal, bounded, neither thrown nor rejected, without the payload',
    async (name) => {
      for (const verdict of await verdicts(hostile[name] as (value: unknown) => unknown)) {
        expect(verdict).not.toBeNull();
        const issues = verdict as ContractIssue[];
        expect(issues.length).toBeGreaterThan(0);
        expect(issues.length).toBeLessThanOrEqual(20);
        for (const issue of issues) {
          expect(issue.path.length).toBeLessThanOrEqual(201);
          expect(issue.message.length).toBeLessThanOrEqual(201);
        }
        expect(JSON.stringify(issues)).not.toContain(SECRET);
      }
    },
  );

  it('a thenable that is not a Promise is awaited: its refusal is not taken for a pass', async () => {
    const contract = defineContract({
      room: {
        e: schema(() => ({
          // biome-ignore lint/suspicious/noThenProperty: the thenable is the case under test.
          then: (resolve: (r: unknown) => void) => resolve({ issues: [{ message: 'no' }] }),
        })),
      },
    });
    await expect(Promise.resolve(contract.check('room', 'e', 1))).resolves.toEqual([
      { path: 'data', message: 'no' },
    ]);
    expect(await contract.checkAll([{ channel: 'room', name: 'e', data: 1 }])).toHaveLength(1);
  });

  it('never-resolving schema: check answers a pending promise, other events are not held by it', () => {
    const contract = defineContract({ room: { stuck: schema(() => new Promise(() => {})), e: refuse } });
    expect(contract.check('room', 'stuck', 1)).toBeInstanceOf(Promise);
    expect(contract.check('room', 'e', 1)).toEqual([{ path: 'data', message: 'refused' }]);
  });
});

describe('pattern keys and names', () => {
  const matches = (key: string, name: string) =>
    defineContract({ [key]: { e: refuse } }).check(name, 'e', 1) !== null;

  it('regular-expression characters in a key are literal; only {…} stands for any text', () => {
    expect(matches('private-a.b-{id}', 'private-a.b-1')).toBe(true);
    expect(matches('private-a.b-{id}', 'private-aXb-1')).toBe(false);
    expect(matches('*', '*')).toBe(true);
    expect(matches('*', 'anything')).toBe(false);
    expect(matches('(a|b)+', '(a|b)+')).toBe(true);
    expect(matches('(a|b)+', 'a')).toBe(false);
    expect(matches('[x]{id}$', '[x]7$')).toBe(true);
    expect(matches('', '')).toBe(true);
    expect(matches('', 'a')).toBe(false);
    expect(matches('{id}', '')).toBe(true);
    expect(matches('{id}', 'any-name')).toBe(true);
    expect(matches('a{', 'a{')).toBe(true);
    expect(matches('a{', 'ab')).toBe(false);
    expect(matches('x-{a}-{b}', 'x--')).toBe(true);
    expect(matches('x-{a}-{b}', 'x-')).toBe(false);
    expect(matches('ab{x}ba', 'aba')).toBe(false);
  });

  it('many placeholders against a long name answer (a regular expression of .* backtracked for minutes)', () => {
    const key = 'private-{a}-{b}-{c}-{d}-{e}x';
    expect(matches(key, `private-${'-'.repeat(400)}`)).toBe(false);
    expect(matches(key, `private-${'-'.repeat(400)}x`)).toBe(true);
  });

  it('prototype names are neither events nor channels of a contract', () => {
    const contract = defineContract({ room: { e: refuse } });
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(contract.check('room', name, 1)).toBeNull();
      expect(contract.check(name, 'e', 1)).toBeNull();
    }
    const keyed = defineContract(JSON.parse('{"__proto__": {"e": 1}, "toString": {}}'));
    expect(keyed.check('__proto__', 'e', 1)).toBeNull();
    expect(keyed.check('toString', 'toString', 1)).toBeNull();
  });

  it('a schema that is a function (as ArkType’s are) is a schema', () => {
    const callable = Object.assign(() => true, refuse);
    const contract = defineContract({ room: { e: callable as unknown as StandardSchemaV1 } });
    expect(contract.check('room', 'e', 1)).toEqual([{ path: 'data', message: 'refused' }]);
  });

  it('a name several patterns match is checked by each of their schemas', () => {
    const contract = defineContract({
      'private-{id}': { e: schema(() => ({ issues: [{ message: 'first', path: ['a'] }] })) },
      'private-a.{id}': { e: schema(() => ({ issues: [{ message: 'second', path: ['b'] }] })) },
      'private-a.b': { e: schema(() => ({ value: 1 })) },
    });
    expect(contract.check('private-a.b', 'e', 1)).toEqual([
      { path: 'data.a', message: 'first' },
      { path: 'data.b', message: 'second' },
    ]);
  });
});
