import { describe, expect, it } from 'vitest';
import {
  identifiedSpeakers,
  renameSpeakerFields,
  renameSpeakers,
} from '../../src/transcription/speakers/rename.js';

const word = (speaker: string | null) => ({ text: 'x', start: 0, end: 1, confidence: 1, speaker });

describe('speaker identification renames the labels', () => {
  it('reads the mapping of a speech_understanding result, ignoring what is not a name', () => {
    const names = identifiedSpeakers({
      response: { speaker_identification: { mapping: { A: 'Agent', B: '', C: 7, __proto__: 'x' } } },
    });
    expect(names && Object.fromEntries(names)).toEqual({ A: 'Agent' });
    expect(identifiedSpeakers(undefined)).toBeNull();
    expect(identifiedSpeakers({ response: { speaker_identification: { mapping: ['A'] } } })).toBeNull();
    expect(identifiedSpeakers({ response: { speaker_identification: { mapping: {} } } })).toBeNull();
  });

  it('renames named labels on words and sentence results; others, and unlabelled words, stay', () => {
    const names = new Map([['A', 'Agent']]);
    expect(renameSpeakers([word('A'), word('B'), word(null)], names).map((w) => w.speaker)).toEqual([
      'Agent',
      'B',
      null,
    ]);
    expect(renameSpeakerFields([{ speaker: 'A' }, { speaker: null }], names)).toEqual([
      { speaker: 'Agent' },
      { speaker: null },
    ]);
    const words = [word('A')];
    expect(renameSpeakers(words, null)).toBe(words);
    expect(renameSpeakerFields(null, names)).toBeNull();
  });
});
