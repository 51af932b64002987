/** Entities the transcription emulator finds in recognised words (openapi.yml `Entity`), with the words' times. */
import { describe, expect, it } from 'vitest';
import type { TranscriptWord } from '../../src/transcription/derive/types.js';
import { detectEntities } from '../../src/transcription/intelligence/index.js';

/** One word every 300 ms, 250 ms long. */
function words(text: string): TranscriptWord[] {
  return text
    .split(' ')
    .map((word, i) => ({ text: word, start: i * 300, end: i * 300 + 250, confidence: 0.9, speaker: null }));
}

describe('detectEntities', () => {
  it('finds the caller, the order number and nothing else in the spoken complaint', () => {
    expect(
      detectEntities(words('this is tom baker my order number 85 arrived broken and i want a refund')),
    ).toEqual([
      { entity_type: 'person_name', text: 'tom baker', start: 600, end: 1150 },
      { entity_type: 'number_sequence', text: '85', start: 2100, end: 2350 },
    ]);
  });

  it('classes numbers by what was said before them', () => {
    const found = detectEntities(
      words('my account number is 123456 and my phone number is 5551234 and the tracking number is 99812'),
    );
    expect(found.map((e) => [e.entity_type, e.text])).toEqual([
      ['account_number', '123456'],
      ['phone_number', '5551234'],
      ['number_sequence', '99812'],
    ]);
  });

  it('finds formatted text too: dates, money, places, organisations, e-mail said aloud, without edge punctuation', () => {
    const found = detectEntities(
      words(
        'It arrived on Monday, March 3rd and cost $40. I live in Boston and work for Microsoft. Write to tom at example dot com.',
      ),
    );
    const byType = Object.fromEntries(found.map((e) => [e.entity_type, e.text]));
    expect(byType).toMatchObject({
      date: 'Monday, March 3rd',
      money_amount: '$40',
      location: 'Boston',
      organization: 'Microsoft',
      email_address: 'tom at example dot com',
    });
  });

  it('reports entities in time order, never overlapping, each a run of the transcript’s words', () => {
    const input = words('Call Sarah Connor in London at 5551234567 about order 4411 on Friday.');
    const text = input.map((w) => w.text).join(' ');
    const found = detectEntities(input);
    expect(found.length).toBeGreaterThanOrEqual(4);
    for (const [i, entity] of found.entries()) {
      expect(text).toContain(entity.text);
      expect(input.some((w) => w.start === entity.start)).toBe(true);
      expect(input.some((w) => w.end === entity.end)).toBe(true);
      if (i > 0) expect(entity.start).toBeGreaterThan(found[i - 1]!.end);
    }
  });

  it('finds nothing in nothing', () => {
    expect(detectEntities([])).toEqual([]);
  });
});
