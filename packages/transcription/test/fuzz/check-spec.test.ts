import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { compareSpec, formatReport, SpecFormatError } from '../../scripts/spec-compare.js';
import { ALLOWED_DIFFERENCES } from '../../scripts/spec-differences.js';
import { MAPPINGS, SKIPPED } from '../../scripts/spec-map.js';

/*
 * `check:spec` reads a document given on the command line: any JSON must end in a report or the typed
 * SpecFormatError, and spec-shaped documents with reference cycles, dangling references and odd
 * combinators (the walk follows $ref, allOf, oneOf, anyOf, items, additionalProperties) must terminate.
 */

const NAMES = ['Transcript', 'TranscriptWord', 'SpeechModel', 'UploadedFile', 'A', 'B', '__proto__'];
const ref = fc
  .constantFrom(...NAMES, 'Nowhere', '../x', '')
  .map((n) => ({ $ref: `#/components/schemas/${n}` }));

const schema: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    ref,
    fc.record(
      {
        type: fc.constantFrom('string', 'object', 'array'),
        enum: fc.array(fc.jsonValue(), { maxLength: 4 }),
      },
      { requiredKeys: [] },
    ),
    fc.record(
      {
        properties: fc.dictionary(
          fc.constantFrom('id', 'status', 'words', 'text', 'x', '__proto__'),
          tie('node'),
          { maxKeys: 4 },
        ),
        items: tie('node'),
        additionalProperties: fc.oneof(fc.boolean(), tie('node')),
        allOf: fc.array(tie('node'), { maxLength: 3 }),
        oneOf: fc.array(tie('node'), { maxLength: 3 }),
        anyOf: fc.oneof(fc.array(tie('node'), { maxLength: 2 }), fc.jsonValue()),
      },
      { requiredKeys: [] },
    ),
    fc.jsonValue({ maxDepth: 2 }),
  ),
})).node;

const parameter = fc.oneof(
  fc.record(
    { name: fc.constantFrom('limit', 'words', '__proto__'), in: fc.constantFrom('query', 'path'), schema },
    { requiredKeys: [] },
  ),
  fc.constantFrom('P', 'Nowhere', '__proto__').map((n) => ({ $ref: `#/components/parameters/${n}` })),
  fc.jsonValue({ maxDepth: 1 }),
);

const specLike = fc.record({
  openapi: fc.constant('3.1.0'),
  components: fc.record({
    schemas: fc.dictionary(fc.constantFrom(...NAMES), schema, { maxKeys: 6 }),
    parameters: fc.dictionary(fc.constantFrom('P', '__proto__'), parameter, { maxKeys: 2 }),
  }),
  paths: fc.dictionary(
    fc.constantFrom('/v2/transcript', '/v2/transcript/{transcript_id}/word-search', '__proto__'),
    fc.record({
      get: fc.oneof(
        fc.record({ parameters: fc.oneof(fc.array(parameter, { maxLength: 4 }), fc.jsonValue()) }),
        fc.jsonValue(),
      ),
    }),
    { maxKeys: 2 },
  ),
});

function check(document: unknown): void {
  try {
    const report = compareSpec(document, MAPPINGS, ALLOWED_DIFFERENCES, Object.keys(SKIPPED));
    expect(typeof formatReport(report)).toBe('string');
  } catch (error) {
    expect(error).toBeInstanceOf(SpecFormatError);
  }
}

describe('check:spec input fuzz', () => {
  for (const run of fuzzRuns(300)) {
    it(`any JSON: a report or SpecFormatError ${run.label}`, () => {
      let n = 0;
      fc.assert(
        fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
          n++;
          check(value);
          check(JSON.parse(JSON.stringify({ components: { schemas: value } })));
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('check:spec (any JSON)', run, n);
    });

    it(`spec-shaped documents with cycles and dangling references end in a report ${run.label}`, () => {
      let n = 0;
      fc.assert(
        fc.property(specLike, (document) => {
          n++;
          // Through JSON, as the file is read: `__proto__` becomes an own key.
          const parsed: unknown = JSON.parse(JSON.stringify(document));
          const report = compareSpec(parsed, MAPPINGS, ALLOWED_DIFFERENCES, Object.keys(SKIPPED));
          expect(report.absent.length).toBeLessThanOrEqual(MAPPINGS.length);
          expect(typeof formatReport(report)).toBe('string');
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('check:spec (spec-shaped)', run, n);
    });
  }
});
