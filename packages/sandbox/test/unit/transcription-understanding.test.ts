/**
 * speech_understanding tasks, legacy summaries and language confidence, computed by the transcription emulator
 * from what was said (shapes: openapi.yml and the speech-understanding docs' example outputs).
 */
import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../src/transcription/derive/index.js';
import type { TranscriptWord } from '../../src/transcription/derive/types.js';
import {
  analyseTranscript,
  customFormat,
  findActionItems,
  identifySpeakers,
  LanguageConfidenceError,
  languageConfidence,
  summarise,
} from '../../src/transcription/intelligence/index.js';
import { checkTranscriptParams } from '../../src/transcription/model/params.js';

/** Words 300 ms apart; `A:` / `B:` at a word switches the speaker from there on. */
function words(text: string): TranscriptWord[] {
  let speaker: string | null = null;
  const out: TranscriptWord[] = [];
  for (const token of text.split(' ')) {
    const label = /^([A-Z]):$/.exec(token);
    if (label) {
      speaker = label[1]!;
      continue;
    }
    const i = out.length;
    out.push({ text: token, start: i * 300, end: i * 300 + 250, confidence: 0.9, speaker });
  }
  return out;
}

const CALL = words(
  'A: Thank you for calling, how can I help? B: Hi, this is Tom Baker. My order number 85 arrived broken. ' +
    'The coffee machine is cracked and I want a refund. A: I am sorry about the coffee machine. ' +
    'I will send you a return label today. Please keep the coffee machine in its box. B: Thanks, that is great.',
);
const SENTENCES = splitSentences(CALL);

describe('summaries', () => {
  it('builds every legacy summary_type from sentences that were said, in spoken order', () => {
    const said = SENTENCES.map((s) => s.text);
    const bullets = summarise(SENTENCES, 'bullets').split('\n');
    expect(bullets.length).toBeGreaterThanOrEqual(1);
    for (const line of bullets) expect(said).toContain(line.replace(/^- /, ''));
    const paragraph = summarise(SENTENCES, 'paragraph');
    expect(paragraph.length).toBeGreaterThan(0);
    expect(said.some((s) => paragraph.startsWith(s))).toBe(true);
    const headline = summarise(SENTENCES, 'headline');
    expect(headline.split(' ').length).toBeLessThanOrEqual(12);
    expect(headline).not.toMatch(/[.!?]$/);
    expect(summarise(SENTENCES, 'gist')).toBe('Coffee machine');
    expect(summarise([], 'bullets')).toBe('');
  });

  it('answers speech_understanding summarization as topic sections with times and a headline', () => {
    const out = analyseTranscript({
      params: { speech_understanding: { request: { summarization: { summary_type: 'bullets' } } } },
      words: CALL,
      sentences: SENTENCES,
    });
    const understanding = out.speech_understanding as {
      request: unknown;
      response: { summarization: unknown };
    };
    expect(understanding.request).toEqual({ summarization: { summary_type: 'bullets' } });
    const { status, summary } = understanding.response.summarization as {
      status: string;
      summary: { start: number; end: number; text: string; headline: string }[];
    };
    expect(status).toBe('success');
    // Sections of up to eight sentences, back to back from the first word to the last.
    expect(summary).toHaveLength(Math.ceil(SENTENCES.length / 8));
    expect(summary[0]!.start).toBe(CALL[0]!.start);
    expect(summary.at(-1)!.end).toBe(CALL.at(-1)!.end);
    for (const section of summary) {
      expect(Object.keys(section).sort()).toEqual(['end', 'headline', 'start', 'text']);
      for (const line of section.text.split('\n')) {
        expect(SENTENCES.map((s) => s.text)).toContain(line.replace(/^- /, ''));
      }
      expect(section.headline.length).toBeGreaterThan(0);
    }
  });
});

describe('action items', () => {
  it('finds commitments and requests, as imperatives quoting the sentence at its start time', () => {
    const items = findActionItems(SENTENCES);
    expect(items).toEqual([
      {
        action_item: 'Send you a return label today.',
        quote: 'I will send you a return label today.',
        timestamp: SENTENCES.find((s) => s.text.startsWith('I will send'))!.start,
      },
      {
        action_item: 'Keep the coffee machine in its box.',
        quote: 'Please keep the coffee machine in its box.',
        timestamp: SENTENCES.find((s) => s.text.startsWith('Please keep'))!.start,
      },
    ]);
    expect(findActionItems(splitSentences(words('I will be at home tomorrow. The box is blue.')))).toEqual(
      [],
    );
  });

  it('echoes the effort asked, low by default, as the docs example shows', () => {
    const run = (task: object) =>
      (
        analyseTranscript({
          params: { speech_understanding: { request: { action_items: task } } },
          words: CALL,
          sentences: SENTENCES,
        }).speech_understanding as { response: { action_items: { effort: string; items: unknown[] } } }
      ).response.action_items;
    expect(run({}).effort).toBe('low');
    expect(run({ effort: 'medium' }).effort).toBe('medium');
    expect(run({}).items).toHaveLength(2);
  });
});

describe('speaker identification', () => {
  it('maps a speaker who introduces themself to the name, in its known spelling', () => {
    expect(identifySpeakers(SENTENCES, { speaker_type: 'name' })).toEqual({
      mapping: { B: 'Tom Baker' },
      status: 'success',
    });
    expect(
      identifySpeakers(SENTENCES, { speaker_type: 'name', known_values: ['Ann Lee', 'Thomas Baker'] }),
    ).toEqual({ mapping: { B: 'Thomas Baker' }, status: 'success' });
  });

  it('maps roles by how each speaker talks', () => {
    expect(
      identifySpeakers(SENTENCES, { speaker_type: 'role', known_values: ['Customer', 'Support Agent'] }),
    ).toEqual({ mapping: { A: 'Support Agent', B: 'Customer' }, status: 'success' });
  });

  it('leaves out speakers nothing identifies, and takes labels as data', () => {
    const odd = splitSentences(words('The box is blue.')).map((s) => ({ ...s, speaker: '__proto__' }));
    expect(identifySpeakers(odd, { speaker_type: 'name' })).toEqual({ mapping: {}, status: 'success' });
  });
});

describe('custom formatting', () => {
  it('answers in speech_understanding with a status, as the SDK types it', () => {
    const said = words('Call me at 5551234567.');
    const out = analyseTranscript({
      params: { speech_understanding: { request: { custom_formatting: { phone_number: 'xxx-xxx-xxxx' } } } },
      words: said,
      sentences: splitSentences(said),
    });
    expect((out.speech_understanding as { response: unknown }).response).toEqual({
      custom_formatting: {
        mapping: { '5551234567': '555-123-4567' },
        formatted_text: 'Call me at 555-123-4567.',
        status: 'success',
      },
    });
  });

  it('rewrites phone numbers, spoken e-mail addresses and dates to the patterns, with the mapping', () => {
    const said = words('Call me at 5551234567 or write to tom at example dot com before March 3rd 2025.');
    expect(
      customFormat(said, { phone_number: '(xxx)xxx-xxxx', email: 'username@domain.com', date: 'mm/dd/yyyy' }),
    ).toEqual({
      mapping: {
        '5551234567': '(555)123-4567',
        'tom at example dot com': 'tom@example.com',
        'March 3rd 2025': '03/03/2025',
      },
      formatted_text: 'Call me at (555)123-4567 or write to tom@example.com before 03/03/2025.',
    });
  });
});

describe('language detection', () => {
  it('is near 1 for English speech and low for words no lexicon knows', () => {
    expect(languageConfidence(CALL)).toBeGreaterThan(0.85);
    expect(languageConfidence(words('xq zzv blorf quux'))).toBeLessThan(0.3);
    expect(languageConfidence([])).toBeNull();
  });

  it('keeps the transcript below the threshold when on_low_language_confidence is "fallback"', () => {
    const noise = words('xq zzv blorf quux');
    const out = analyseTranscript({
      params: {
        language_detection: true,
        language_confidence_threshold: 0.5,
        language_detection_options: { on_low_language_confidence: 'fallback' },
      },
      words: noise,
      sentences: splitSentences(noise),
    });
    expect(out.language_confidence).toBeLessThan(0.5);
  });

  it('ends the transcript with the service’s message below language_confidence_threshold', () => {
    const params = { language_detection: true, language_confidence_threshold: 0.5 };
    const noise = words('xq zzv blorf quux');
    expect(() => analyseTranscript({ params, words: noise, sentences: splitSentences(noise) })).toThrow(
      LanguageConfidenceError,
    );
    expect(() => analyseTranscript({ params, words: noise, sentences: splitSentences(noise) })).toThrow(
      /^detected language 'en', confidence 0\.\d{4}, is below the requested confidence threshold value of '0\.5'$/,
    );
    const ok = analyseTranscript({ params, words: CALL, sentences: SENTENCES });
    expect(ok.language_confidence).toBeGreaterThan(0.5);
  });
});

describe('request checks', () => {
  const body = (speech_understanding: unknown) => ({
    audio_url: 'https://example.com/a.wav',
    speech_models: ['universal-2'],
    speech_understanding,
  });

  it.each([
    [{}, /speech_understanding must have a request object/],
    [{ request: {} }, /request must name one or more of translation/],
    [{ request: { chapters: {} } }, /not "chapters"/],
    [{ request: { translation: { target_languages: ['es'] } } }, /cannot translate.*not "es"/],
    [{ request: { translation: {} } }, /target_languages must be a non-empty array/],
    [{ request: { speaker_identification: { speaker_type: 'role' } } }, /known_values is required/],
    [{ request: { speaker_identification: { speaker_type: 'voice' } } }, /speaker_type must be one of/],
    [
      { request: { summarization: { effort: 'max' } } },
      /summarization.effort must be one of "low", "medium"/,
    ],
    [
      { request: { translation: { target_languages: ['en'], effort: 'high' } } },
      /translation.effort must be one/,
    ],
    [{ request: { custom_formatting: { date: 5 } } }, /custom_formatting.date must be a string/],
  ])('refuses %j naming the field', (value, message) => {
    const result = checkTranscriptParams(body(value));
    expect('error' in result && result.error).toMatch(message);
  });

  it('takes several tasks in one request, as the docs run them', () => {
    const result = checkTranscriptParams(
      body({
        request: {
          translation: { target_languages: ['en'] },
          speaker_identification: { speaker_type: 'role', known_values: ['Agent', 'Customer'] },
          custom_formatting: { date: 'mm/dd/yyyy' },
          summarization: { summary_type: 'paragraph', effort: 'medium' },
          action_items: {},
        },
      }),
    );
    expect(result).toHaveProperty('params');
  });
});
