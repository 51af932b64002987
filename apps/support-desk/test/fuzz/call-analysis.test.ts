/**
 * What the transcription service answers, as the desk reads it, fuzzed with fast-check: utterances with any
 * labels (`__proto__`, empty, many), sentences with or without a speaker and times outside every utterance,
 * a speaker-identification mapping of anything, summaries, action items and entities of any text. The
 * analysis never throws, every sentence is Agent, Customer or unlabelled, the overall sentiment counts
 * exactly the sentences not said by the agent, and the note names every action item and entity it kept.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { MAX_ENTITIES } from '../../src/server/analysis/insights.js';
import {
  analyseSentiment,
  MAX_NOTE_BYTES,
  orderNoteText,
  type TranscriptInput,
} from '../../src/server/analysis/summary.js';

const label = fc.oneof(
  fc.constantFrom('A', 'B', 'C', 'Agent', 'Customer', '__proto__', 'constructor', ''),
  fc.string(),
);
const words = fc.oneof(
  fc.string(),
  fc.constantFrom(
    'Thank you for calling, how can I help?',
    'My name is Tom Baker, my order number 85 arrived broken.',
    'I want a refund.',
    'I will send you a refund.',
  ),
);
const time = fc.integer({ min: -1000, max: 60_000 });

const transcript: fc.Arbitrary<TranscriptInput> = fc.record(
  {
    id: fc.string(),
    text: fc.option(words),
    audio_duration: fc.option(fc.double({ noNaN: false })),
    utterances: fc.option(
      fc.array(fc.record({ speaker: label, text: words, start: time, end: time }), { maxLength: 8 }),
    ),
    sentiment_analysis_results: fc.option(
      fc.array(
        fc.record({
          text: words,
          start: time,
          end: time,
          sentiment: fc.oneof(fc.constantFrom('POSITIVE', 'NEUTRAL', 'NEGATIVE'), fc.string()),
          confidence: fc.double(),
          speaker: fc.option(label),
        }),
        { maxLength: 10 },
      ),
    ),
    entities: fc.option(fc.array(fc.record({ entity_type: fc.string(), text: words }), { maxLength: 30 })),
    speech_understanding: fc.option(
      fc.record(
        {
          response: fc.record(
            {
              speaker_identification: fc.record(
                { mapping: fc.dictionary(label, label) },
                { requiredKeys: [] },
              ),
              summarization: fc.record(
                {
                  summary: fc.array(
                    fc.record({ text: words, headline: fc.option(words, { nil: undefined }) }),
                    {
                      maxLength: 4,
                    },
                  ),
                },
                { requiredKeys: [] },
              ),
              action_items: fc.record(
                { items: fc.array(fc.record({ action_item: words }), { maxLength: 4 }) },
                {
                  requiredKeys: [],
                },
              ),
            },
            { requiredKeys: [] },
          ),
        },
        { requiredKeys: [] },
      ),
    ),
  },
  { requiredKeys: ['id'] },
);

describe('the analysis of any transcript the service may send', () => {
  for (const run of fuzzRuns(300)) {
    it(`never throws; roles, counts, the note hold (${run.label})`, () => {
      let inputs = 0;
      fc.assert(
        fc.property(transcript, (t) => {
          inputs++;
          const a = analyseSentiment(t);
          for (const s of a.sentences) expect([null, 'Agent', 'Customer']).toContain(s.speaker);
          for (const u of a.utterances ?? []) expect(['Agent', 'Customer']).toContain(u.speaker);
          const counted = a.sentences.filter((s) => s.speaker !== 'Agent').length;
          expect(a.counts.POSITIVE + a.counts.NEUTRAL + a.counts.NEGATIVE).toBe(counted);
          expect(a.score).toBeGreaterThanOrEqual(-1);
          expect(a.score).toBeLessThanOrEqual(1);
          const labels = new Set((t.utterances ?? []).map((u) => u.speaker));
          if (labels.size === 0) expect(a.customerSpeaker).toEqual({ label: null, by: 'none' });
          else expect(labels.has(a.customerSpeaker!.label!)).toBe(true);
          // Some voice is the customer's whenever there are voices.
          if (labels.size > 0) expect(a.utterances!.some((u) => u.speaker === 'Customer')).toBe(true);
          expect(a.entities!.length).toBeLessThanOrEqual(MAX_ENTITIES);
          const identity = { spoken: null, onRecord: null, orderNumber: null, matches: null };
          const note = orderNoteText(a, 'summary', identity);
          expect(Buffer.byteLength(note, 'utf8')).toBeLessThanOrEqual(MAX_NOTE_BYTES);
          for (const item of a.actionItems!) expect(note).toContain(`- ${item}`);
          for (const e of a.entities!) expect(note).toContain(`${e.text} (${e.entity_type})`);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('support-desk call analysis', run, inputs);
    });
  }
});
