import { describe, expect, it } from 'vitest';
import { jsonTextDepth } from '../../src/kit/json-depth.js';
import { MAX_JSON_DEPTH, parseJsonBody } from '../../src/transcription/model/json-body.js';

describe("the kit's jsonTextDepth against a request body's bound", () => {
  it.each([
    ['{}', 1, false],
    ['{}', 0, true],
    ['[[[]]]', 3, false],
    ['[[[]]]', 2, true],
    ['[[],[],[]]', 2, false],
    ['{"a":"[[[[[[","b":1}', 1, false],
    ['{"a":"\\"[[[[","b":[1]}', 2, false],
    ['{"a":"\\\\","b":[[1]]}', 2, true],
  ])('%s with a bound of %i → %s', (text, max, exceeds) => {
    expect(jsonTextDepth(text, max) > max).toBe(exceeds);
  });

  it('measures 100,000 levels without recursion', () => {
    expect(jsonTextDepth('['.repeat(100_000) + ']'.repeat(100_000), MAX_JSON_DEPTH)).toBe(MAX_JSON_DEPTH + 1);
  });
});

describe('parseJsonBody', () => {
  it('names the fault, without quoting the body back', () => {
    const bad = parseJsonBody('{"webhook_auth_header_value":"s3cret", }');
    expect(bad).toEqual({ error: expect.stringMatching(/^Invalid request body: not valid JSON \(/) });
    expect(JSON.stringify(bad)).not.toContain('s3cret');
    expect(parseJsonBody('  ')).toEqual({ error: expect.stringMatching(/the body is empty/) });
    expect(parseJsonBody(`${'['.repeat(65)}${']'.repeat(65)}`)).toEqual({
      error: 'Invalid request body: JSON nested deeper than 64 levels.',
    });
    expect(parseJsonBody(`${'['.repeat(64)}${']'.repeat(64)}`)).toHaveProperty('value');
  });
});
