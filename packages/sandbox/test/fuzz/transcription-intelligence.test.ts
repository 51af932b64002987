/**
 * Fuzzing the transcription emulator's text intelligence (fast-check): analyseTranscript over arbitrary words
 * (any text, unicode, punctuation, digits, speaker labels such as "__proto__", any times and confidences) and
 * arbitrary request parameters, including speech_understanding tasks of any shape. It must never throw (except
 * the documented language-confidence refusal) and every answer must hold: each entity and key phrase is text
 * of the transcript and lies within the audio; sentiment has one result per sentence; action items quote a
 * sentence; summaries are made of said sentences; language_confidence is in 0..1; the custom-formatting mapping
 * only names text that was said.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { splitSentences } from '../../src/transcription/derive/index.js';
import type { TranscriptWord } from '../../src/transcription/derive/types.js';
import { analyseTranscript, LanguageConfidenceError } from '../../src/transcription/intelligence/index.js';
import { checkTranscriptParams } from '../../src/transcription/model/params.js';

const wordText = fc.oneof(
  fc.constantFrom(
    'this',
    'is',
    'Tom',
    'Baker.',
    'order',
    'number',
    '85',
    'broken',
    'refund',
    'please',
    'I',
    'will',
    'send',
    'at',
    'dot',
    'com',
    'March',
    '3rd',
    '2025',
    'damn',
    'hell',
    'not',
    'very',
    'but',
    '5551234567',
    '$40.',
    'my',
    'name',
    "I'm",
    'call',
    'me',
    'never',
    'arrived',
    'coffee',
    'machine',
    'London,',
    'Microsoft.',
    '?',
  ),
  fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !/\s/.test(s)),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }).filter((s) => !/\s/.test(s)),
);

/** Words in time order, as the engine gives them; speakers from a few labels, hostile ones included. */
const words = fc
  .array(
    fc.record({
      text: wordText,
      gap: fc.nat(2000),
      length: fc.nat(1500),
      confidence: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constant(Number.NaN)),
      speaker: fc.constantFrom(null, 'A', 'B', '__proto__', 'constructor'),
    }),
    { maxLength: 60 },
  )
  .map((raw) => {
    let at = 0;
    return raw.map(({ text, gap, length, confidence, speaker }): TranscriptWord => {
      const start = at + gap;
      at = start + length;
      return { text, start, end: at, confidence, speaker };
    });
  });

const anything = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.string(),
  fc.integer(),
  fc.object(),
);
const task = fc.oneof(
  anything,
  fc.record(
    {
      summary_type: fc.oneof(
        fc.constantFrom('bullets', 'bullets_verbose', 'gist', 'headline', 'paragraph'),
        anything,
      ),
      effort: fc.oneof(fc.constantFrom('low', 'medium', 'high'), anything),
      speaker_type: fc.oneof(fc.constantFrom('name', 'role'), anything),
      known_values: fc.oneof(fc.array(fc.string(), { maxLength: 4 }), anything),
      speakers: fc.oneof(fc.array(fc.object(), { maxLength: 3 }), anything),
      target_languages: fc.oneof(fc.array(fc.constantFrom('en', 'es', 'en_us'), { maxLength: 3 }), anything),
      date: fc.oneof(fc.constantFrom('mm/dd/yyyy', 'dd.mm.yy', 'yyyy-mm-dd'), anything),
      phone_number: fc.oneof(fc.constantFrom('(xxx)xxx-xxxx', 'xxx-xxxx', ''), anything),
      email: fc.oneof(fc.constant('username@domain.com'), anything),
    },
    { requiredKeys: [] },
  ),
);

const params = fc.record(
  {
    sentiment_analysis: fc.oneof(fc.constant(true), anything),
    content_safety: fc.oneof(fc.constant(true), anything),
    content_safety_confidence: fc.oneof(fc.integer({ min: 25, max: 100 }), anything),
    entity_detection: fc.oneof(fc.constant(true), anything),
    auto_highlights: fc.oneof(fc.constant(true), anything),
    iab_categories: fc.oneof(fc.constant(true), anything),
    summarization: fc.oneof(fc.constant(true), anything),
    summary_type: fc.oneof(
      fc.constantFrom('bullets', 'bullets_verbose', 'gist', 'headline', 'paragraph'),
      anything,
    ),
    language_detection: fc.oneof(fc.constant(true), anything),
    language_confidence_threshold: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), anything),
    speech_understanding: fc.oneof(
      anything,
      fc.record(
        {
          request: fc.oneof(
            anything,
            fc.record(
              {
                translation: task,
                speaker_identification: task,
                custom_formatting: task,
                summarization: task,
                action_items: task,
              },
              { requiredKeys: [] },
            ),
          ),
        },
        { requiredKeys: [] },
      ),
    ),
  },
  { requiredKeys: [] },
);

/** Mostly well-formed tasks, so most bodies pass the checks and reach the analysers; some of anything. */
const often = <T>(valid: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: valid, weight: 5 }, { arbitrary: anything, weight: 1 });
const understandingBody = fc.oneof(
  { arbitrary: anything, weight: 1 },
  {
    weight: 8,
    arbitrary: fc.record({
      request: fc.record(
        {
          translation: often(
            fc.record(
              {
                target_languages: fc.array(fc.constantFrom('en', 'en_us', 'es'), {
                  minLength: 1,
                  maxLength: 2,
                }),
                formal: fc.boolean(),
              },
              { requiredKeys: ['target_languages'] },
            ),
          ),
          speaker_identification: often(
            fc.record({
              speaker_type: fc.constantFrom('name', 'role'),
              known_values: fc.array(fc.string({ maxLength: 40 }), { maxLength: 3 }),
            }),
          ),
          custom_formatting: often(
            fc.record(
              { date: fc.string(), phone_number: fc.string(), email: fc.string() },
              { requiredKeys: [] },
            ),
          ),
          summarization: often(
            fc.record(
              {
                summary_type: fc.constantFrom('bullets', 'paragraph', 'headline'),
                effort: fc.constantFrom('low', 'medium', 'high'),
              },
              { requiredKeys: [] },
            ),
          ),
          action_items: often(
            fc.record({ effort: fc.constantFrom('low', 'medium', 'high') }, { requiredKeys: [] }),
          ),
        },
        { requiredKeys: [] },
      ),
    }),
  },
);

type Span = { text: string; start: number; end: number };

describe('analyseTranscript fuzzing', () => {
  for (const run of fuzzRuns(300)) {
    it(`arbitrary words and parameters ${run.label}`, () => {
      let n = 0;
      fc.assert(
        fc.property(words, params, (input, request) => {
          n += 1;
          const sentences = splitSentences(input);
          const text = input.map((w) => w.text).join(' ');
          const first = input[0]?.start ?? 0;
          const last = input.at(-1)?.end ?? 0;
          const within = (span: { start: number; end: number }) => {
            expect(span.start).toBeGreaterThanOrEqual(first);
            expect(span.end).toBeLessThanOrEqual(last);
            expect(span.end).toBeGreaterThanOrEqual(span.start);
          };
          let out: ReturnType<typeof analyseTranscript>;
          try {
            out = analyseTranscript({ params: request as Record<string, unknown>, words: input, sentences });
          } catch (error) {
            // The one refusal the service documents; anything else is a bug.
            expect(error).toBeInstanceOf(LanguageConfidenceError);
            expect(request.language_detection).toBe(true);
            return;
          }
          for (const entity of (out.entities ?? []) as Span[]) {
            expect(text).toContain(entity.text);
            within(entity);
          }
          const highlights = out.auto_highlights_result as {
            results: (Span & { timestamps: Span[]; rank: number })[];
          } | null;
          for (const phrase of highlights?.results ?? []) {
            expect(text.toLowerCase()).toContain(phrase.text.toLowerCase());
            expect(phrase.rank).toBeGreaterThan(0);
            expect(phrase.rank).toBeLessThanOrEqual(1);
            for (const t of phrase.timestamps) within(t);
          }
          if (out.sentiment_analysis_results)
            expect(out.sentiment_analysis_results).toHaveLength(sentences.length);
          if (out.language_confidence !== null) {
            expect(out.language_confidence).toBeGreaterThanOrEqual(0);
            expect(out.language_confidence).toBeLessThanOrEqual(1);
          }
          if (out.summary !== null) {
            for (const line of out.summary.split('\n').filter(Boolean)) {
              // Said words, in the order said (a gist is capitalised, so compared without case).
              expect(text.toLowerCase()).toContain(line.replace(/^- /, '').split(' ')[0]!.toLowerCase());
            }
          }
          const response = (out.speech_understanding as { response?: Record<string, unknown> } | undefined)
            ?.response;
          const items = (
            response?.action_items as { items: { quote: string; timestamp: number }[] } | undefined
          )?.items;
          for (const item of items ?? []) {
            expect(sentences.map((s) => s.text)).toContain(item.quote);
            expect(item.timestamp).toBeGreaterThanOrEqual(first);
          }
          const sections = (response?.summarization as { summary: Span[] } | undefined)?.summary;
          for (const section of sections ?? []) within(section);
          const formatting = response?.custom_formatting as { mapping: Record<string, string> } | undefined;
          for (const original of Object.keys(formatting?.mapping ?? {})) expect(text).toContain(original);
          // The answer is data: it survives JSON as it is.
          expect(JSON.parse(JSON.stringify(out))).toEqual(JSON.parse(JSON.stringify(out)));
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('transcription intelligence', run, n);
    });
  }

  for (const run of fuzzRuns(500)) {
    it(`speech_understanding bodies: checked without throwing, and what passes is analysed ${run.label}`, () => {
      let n = 0;
      let accepted = 0;
      fc.assert(
        fc.property(understandingBody, words, (understanding, input) => {
          n += 1;
          const body = {
            audio_url: 'https://example.com/a.wav',
            speech_models: ['universal-2'],
            speech_understanding: understanding,
          };
          const checked = checkTranscriptParams(JSON.parse(JSON.stringify(body)));
          if ('error' in checked) {
            expect(checked.error).toMatch(/^Invalid request body: |^The sandbox/);
            return;
          }
          accepted += 1;
          try {
            analyseTranscript({ params: checked.params, words: input, sentences: splitSentences(input) });
          } catch (error) {
            expect(error).toBeInstanceOf(LanguageConfidenceError);
          }
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      // Printed with the count, so a run whose bodies were all refused shows it.
      reportFuzz(`transcription speech_understanding bodies (${accepted} accepted)`, run, n);
    });
  }
});
