/**
 * Recognition is real: sentences spoken by flite's 16 kHz voices, transcribed through the SDK by the
 * emulator's PocketSphinx, compared word by word. The word error rates are printed so the closing notes can
 * record them; the bounds are the acceptance, not timings.
 */
import { synthesizeSpeech, wordErrorRate } from '@x/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transcript, TranscriptionClient } from '../../src/index.js';
import { clientFor, sandbox } from '../helpers/sandbox.js';

/** Short customer-service sentences, as a support line hears them (numbers as spoken, expected as digits). */
const SENTENCES: [spoken: string, expected: string][] = [
  ['my order number is four five six', 'my order number is 456'],
  ['the package arrived broken', 'the package arrived broken'],
  ['thank you for your help', 'thank you for your help'],
  ['i would like a refund please', 'i would like a refund please'],
  ['where is my delivery', 'where is my delivery'],
  ['the tracking number is seven eight nine', 'the tracking number is 789'],
  ['i was charged twice for the same order', 'i was charged twice for the same order'],
  ['can you send a replacement today', 'can you send a replacement today'],
  ['the shoes are too small', 'the shoes are too small'],
  ['please cancel my subscription', 'please cancel my subscription'],
  ['i have been waiting for two weeks', 'i have been waiting for two weeks'],
];

let box: Awaited<ReturnType<typeof sandbox>>;
let client: TranscriptionClient;

beforeAll(async () => {
  box = await sandbox({ concurrency: 32 });
  client = clientFor(box, { maxConcurrentJobs: 32 });
});
afterAll(() => box?.close());

async function transcribeAll(voice: string): Promise<Transcript[]> {
  return Promise.all(
    SENTENCES.map(async ([spoken]) =>
      client.transcripts.transcribe(
        { audio: await synthesizeSpeech(spoken, { voice }), speech_models: ['universal-2'] },
        { pollInterval: 50 },
      ),
    ),
  );
}

/** Errors over all reference words: the corpus word error rate. */
function corpusWer(transcripts: Transcript[]): number {
  let errors = 0;
  let words = 0;
  transcripts.forEach((t, i) => {
    const expected = SENTENCES[i]![1];
    const count = expected.split(' ').length;
    errors += wordErrorRate(expected, t.text ?? '') * count;
    words += count;
  });
  return errors / words;
}

describe('recognition accuracy', () => {
  it('kal16: word error rate under 15% over 11 sentences', async () => {
    const wer = corpusWer(await transcribeAll('kal16'));
    console.log(`word error rate, flite kal16: ${(wer * 100).toFixed(1)}%`);
    expect(wer).toBeLessThan(0.15);
  });

  it('slt (a second voice): word error rate under 35%', async () => {
    const wer = corpusWer(await transcribeAll('slt'));
    console.log(`word error rate, flite slt: ${(wer * 100).toFixed(1)}%`);
    expect(wer).toBeLessThan(0.35);
  });
});

describe('audio intelligence on recognised speech', () => {
  it('sentiment: a clearly negative sentence is NEGATIVE, a clearly positive one POSITIVE', async () => {
    const t = await client.transcripts.transcribe({
      audio: await synthesizeSpeech('this is terrible. i am very angry and disappointed.'),
      speech_models: ['universal-2'],
      sentiment_analysis: true,
    });
    const happy = await client.transcripts.transcribe({
      audio: await synthesizeSpeech('thank you so much. you were wonderful and very helpful.'),
      speech_models: ['universal-2'],
      sentiment_analysis: true,
    });
    expect(t.sentiment_analysis_results?.map((r) => r.sentiment)).toContain('NEGATIVE');
    expect(t.sentiment_analysis_results?.some((r) => r.sentiment === 'POSITIVE')).toBe(false);
    expect(happy.sentiment_analysis_results?.map((r) => r.sentiment)).toContain('POSITIVE');
    for (const r of [...t.sentiment_analysis_results!, ...happy.sentiment_analysis_results!]) {
      expect(r.confidence).toBeGreaterThan(0);
      expect(r.end).toBeGreaterThan(r.start);
    }
  });

  it('content safety: a profane sentence gets a profanity label; a clean one none', async () => {
    const rude = await client.transcripts.transcribe({
      audio: await synthesizeSpeech('this is shit. what the hell is wrong with you.'),
      speech_models: ['universal-2'],
      content_safety: true,
    });
    const labels = rude.content_safety_labels?.results.flatMap((r) => r.labels.map((l) => l.label));
    expect(labels).toContain('profanity');
    expect(rude.content_safety_labels?.summary.profanity).toBeGreaterThan(0);
    const clean = await client.transcripts.transcribe({
      audio: await synthesizeSpeech('where is my delivery'),
      speech_models: ['universal-2'],
      content_safety: true,
    });
    expect(clean.content_safety_labels?.results).toEqual([]);
  });

  it('filter_profanity masks the word as the service does; custom_spelling rewrites words', async () => {
    const t = await client.transcripts.transcribe({
      audio: await synthesizeSpeech('this is shit. my order number is four five six.'),
      speech_models: ['universal-2'],
      filter_profanity: true,
      custom_spelling: [
        { from: ['order'], to: 'Order' },
        { from: ['456'], to: 'A-456' },
      ],
    });
    expect(t.text).toContain('s***');
    expect(t.text).not.toMatch(/shit/i);
    expect(t.text).toContain('Order number is A-456.');
  });
});
