import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { transcriptParams } from '../../src/schemas/params.js';
import { transcript } from '../../src/schemas/transcripts.js';

/*
 * `speech_understanding` is an input surface with five nested task objects: any value must come back as a
 * parse result (never a throw), a valid combination of tasks must pass as given, and a key nobody knows,
 * wherever it is put, must be refused at its own path.
 */

const base = { audio_url: 'https://example.com/a.mp3', speech_models: ['universal-2'] };
const effort = fc.option(fc.constantFrom('low', 'medium'), { nil: undefined });
const words = fc.array(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 4 });

/** Drops the keys whose value is undefined, as a caller writing the object by hand would. */
const defined = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

const TASKS = {
  translation: fc
    .record({ target_languages: words, formal: fc.option(fc.boolean(), { nil: undefined }), effort })
    .map(defined),
  speaker_identification: fc
    .record({ speaker_type: fc.constantFrom('role', 'name'), known_values: words, effort })
    .map(defined),
  custom_formatting: fc
    .record({
      date: fc.option(fc.constant('mm/dd/yyyy'), { nil: undefined }),
      phone_number: fc.string(),
      effort,
    })
    .map(defined),
  summarization: fc
    .record({ summary_type: fc.option(fc.constantFrom('bullets', 'paragraph'), { nil: undefined }), effort })
    .map(defined),
  action_items: fc.record({ effort }).map(defined),
};

/** One to five tasks, each with valid options. */
const validRequest = fc
  .subarray(Object.keys(TASKS) as (keyof typeof TASKS)[], { minLength: 1 })
  .chain((names) =>
    fc.record(
      Object.fromEntries(names.map((n) => [n, TASKS[n]])) as Record<
        string,
        fc.Arbitrary<Record<string, unknown>>
      >,
    ),
  );

const anyValue = fc.oneof(
  fc.anything({ withObjectString: true, withNullPrototype: true, maxDepth: 4 }),
  fc.dictionary(
    fc.constantFrom('__proto__', 'constructor', 'translation', 'action_items', 'x'),
    fc.anything(),
  ),
);

describe('speech_understanding request fuzz', () => {
  for (const run of fuzzRuns(400)) {
    it(`any value parses to a result, issues only under speech_understanding ${run.label}`, () => {
      let n = 0;
      fc.assert(
        fc.property(anyValue, fc.boolean(), (value, wrapped) => {
          n++;
          const speech_understanding = wrapped ? { request: value } : value;
          const result = transcriptParams.safeParse({ ...base, speech_understanding });
          for (const issue of result.error?.issues ?? []) expect(issue.path[0]).toBe('speech_understanding');
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('speech_understanding (any value)', run, n);
    });

    it(`valid task combinations pass as given; an unknown key is refused at its path ${run.label}`, () => {
      let n = 0;
      fc.assert(
        fc.property(
          validRequest,
          fc.string({ minLength: 1, maxLength: 10 }),
          fc.nat(),
          (request, key, at) => {
            n++;
            const ok = transcriptParams.safeParse({ ...base, speech_understanding: { request } });
            expect(ok.error?.issues).toBeUndefined();
            expect(ok.data?.speech_understanding?.request).toEqual(request);
            // The echo a transcript carries is read back with the same tasks.
            const echoed = transcript.safeParse({
              id: 't',
              status: 'completed',
              audio_url: 'x',
              speech_understanding: { request },
            });
            expect(echoed.success).toBe(true);

            const tasks = Object.keys(request);
            const where = at % (tasks.length + 1);
            const unknown = `zz_${key}`;
            const bad =
              where === tasks.length
                ? { ...request, [unknown]: {} }
                : { ...request, [tasks[where]!]: { ...request[tasks[where]!], [unknown]: true } };
            const path =
              where === tasks.length
                ? ['speech_understanding', 'request']
                : ['speech_understanding', 'request', tasks[where]];
            const refused = transcriptParams.safeParse({ ...base, speech_understanding: { request: bad } });
            expect(refused.success).toBe(false);
            expect(refused.error?.issues).toContainEqual(
              expect.objectContaining({ code: 'unrecognized_keys', path, keys: [unknown] }),
            );
          },
        ),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('speech_understanding (valid + unknown key)', run, n);
    });
  }
});
