/**
 * PHP's request-array parsing: parsePhpPairs() against the key scans it replaced (the reference model here),
 * on random `a[]`, `a[5]`, `a[x][]` names, and a form of a million `a[]=` pairs answered over a real socket.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { type PhpArray, type PhpValue, parsePhpPairs } from '../../src/store/runtime/php.js';
import { basicAuth } from '../helpers/http.js';

/** The `[]` step as first written: one past the largest integer key the array holds, found by a scan. */
function reference(pairs: [string, string][]): PhpArray {
  const root: PhpArray = Object.create(null);
  const nextIndex = (node: PhpArray) => {
    let max = -1;
    for (const k of Object.keys(node)) if (/^(0|[1-9]\d*)$/.test(k)) max = Math.max(max, Number(k));
    return max + 1;
  };
  for (const [rawKey, value] of pairs) {
    if (rawKey === '') continue;
    const open = rawKey.indexOf('[');
    let base = (open > 0 ? rawKey.slice(0, open) : rawKey).replace(/[ .]/g, '_');
    const subs: string[] = [];
    if (open > 0) {
      const re = /\[([^\]]*)\]/gy;
      re.lastIndex = open;
      for (let m = re.exec(rawKey); m !== null; m = re.exec(rawKey)) subs.push(m[1]!);
      if (subs.length === 0) base = rawKey.replace(/[ .]/g, '_');
    }
    if (subs.length === 0) {
      root[base] = value;
      continue;
    }
    let node: PhpArray = root;
    let key = base;
    for (const sub of subs) {
      let child: PhpValue | undefined = node[key];
      if (child === undefined || typeof child === 'string') {
        child = Object.create(null) as PhpArray;
        node[key] = child;
      }
      node = child;
      key = sub === '' ? String(nextIndex(node)) : sub;
    }
    node[key] = value;
  }
  return root;
}

const name = fc
  .tuple(
    fc.constantFrom('a', 'b', '__proto__', 'a b', 'a.b', ''),
    fc.array(fc.constantFrom('[]', '[0]', '[5]', '[007]', '[-1]', '[x]', '[__proto__]', '[2]', '['), {
      maxLength: 3,
    }),
  )
  .map(([base, subs]) => `${base}${subs.join('')}`);

describe('parsePhpPairs against its reference model', () => {
  for (const run of fuzzRuns(2_000)) {
    it(`store PHP array parsing ${run.label}`, async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(name, fc.constantFrom('1', 'x', '')), { maxLength: 10 }),
          async (pairs) => {
            n++;
            expect(parsePhpPairs(pairs)).toEqual(reference(pairs));
          },
        ),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('store PHP array parsing', run, n);
    });
  }
});

describe('a form of a million a[]= pairs', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ store: { rateLimit: false, seed: 'none' } });
  });
  afterAll(() => sandbox.close());

  // The scans took longer than ten minutes for this one request, and held every other client meanwhile.
  it('is parsed in one pass', async () => {
    const body = `${Array.from({ length: 1_000_000 }, () => 'a[]=1').join('&')}&name=Many`;
    const res = await fetch(`${sandbox.url}/wp-json/wc/v3/products`, {
      method: 'POST',
      headers: { Authorization: basicAuth(sandbox), 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { name: string }).name).toBe('Many');
  });
});
