/**
 * Contract: audio intelligence computed from what was said, read through the official AssemblyAI SDK
 * (`assemblyai` 4.41.5) against the transcription emulator over real sockets. The speech is synthesised with
 * flite and recognised by PocketSphinx, so every assertion is about the recognised words: entities and key
 * phrases inside the audio, the complaint NEGATIVE, summaries and action items made of sentences that were said,
 * "damn" labelled profanity, language confidence and the speech_understanding request checks.
 */
import { AssemblyAI, type Transcript } from 'assemblyai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox, synthesizeSpeech } from '../../src/index.js';

const speech_models = ['universal-2'];
const polling = { pollingInterval: 100, pollingTimeout: 30_000 };

/** A caller's complaint, spoken as our engine formats it ("order number 85"). */
const CALL =
  'this is tom baker. my order number eighty five arrived broken and i want a refund. ' +
  'please send me a new coffee machine. i will send the broken coffee machine back tomorrow.';
/** flite's rms voice says "damn" so that PocketSphinx hears it (kal16's comes out as "dow"). */
const SWEARING = 'the damn driver left the box outside';

/** The SDK's params type predates speech_understanding's newer tasks; the wire takes them. */
type Params = Parameters<AssemblyAI['transcripts']['transcribe']>[0];

describe('audio intelligence through the official SDK', () => {
  let sandbox: Sandbox<false>;
  let client: AssemblyAI;
  let callWav: string;
  let swearingWav: string;
  let call: Transcript & { speech_understanding?: { response: Record<string, unknown> } };

  beforeAll(async () => {
    sandbox = await startSandbox({ store: false, transcription: { rateLimit: false } });
    client = new AssemblyAI({ apiKey: sandbox.transcription!.apiKey, baseUrl: sandbox.url });
    [callWav, swearingWav] = await Promise.all([
      synthesizeSpeech(CALL, { voice: 'kal16' }),
      synthesizeSpeech(SWEARING, { voice: 'rms' }),
    ]);
    call = (await client.transcripts.transcribe(
      {
        audio: callWav,
        speech_models,
        entity_detection: true,
        auto_highlights: true,
        sentiment_analysis: true,
        language_detection: true,
        summarization: true,
        summary_model: 'informative',
        summary_type: 'bullets',
        speech_understanding: {
          request: { action_items: {}, summarization: { summary_type: 'paragraph' } },
        },
      } as unknown as Params,
      polling,
    )) as typeof call;
  });

  afterAll(async () => {
    await sandbox?.transcription?.idle();
    await sandbox?.close();
  });

  const audioMs = () => call.audio_duration! * 1000 + 1000;

  it('completes with the call recognised', () => {
    expect(call.status).toBe('completed');
    const text = call.text!.toLowerCase();
    for (const word of ['order', '85', 'broken', 'refund', 'coffee', 'machine']) expect(text).toContain(word);
  });

  it('finds the caller and the order number, with times inside the audio and their text in the transcript', () => {
    const entities = call.entities!;
    expect(entities.find((e) => e.entity_type === 'number_sequence')?.text).toBe('85');
    expect(entities.find((e) => e.entity_type === 'person_name')?.text.toLowerCase()).toBe('tom baker');
    for (const entity of entities) {
      expect(call.text).toContain(entity.text);
      expect(entity.start).toBeGreaterThanOrEqual(0);
      expect(entity.end).toBeGreaterThan(entity.start);
      expect(entity.end).toBeLessThanOrEqual(audioMs());
      const word = call.words!.find((w) => w.start === entity.start);
      expect(entity.text.startsWith(word!.text.replace(/[.,]$/, ''))).toBe(true);
    }
  });

  it('ranks key phrases: the phrase said twice first, ranks descending in 0..1, every mention timed', () => {
    const { status, results } = call.auto_highlights_result!;
    expect(status).toBe('success');
    expect(results[0]).toMatchObject({ text: 'coffee machine', count: 2, rank: 1 });
    for (const [i, r] of results.entries()) {
      if (i > 0) expect(r.rank).toBeLessThanOrEqual(results[i - 1]!.rank);
      expect(r.timestamps).toHaveLength(r.count);
      for (const t of r.timestamps) {
        expect(t.end).toBeGreaterThan(t.start);
        expect(t.end).toBeLessThanOrEqual(audioMs());
      }
    }
  });

  it('reads the spoken complaint NEGATIVE', () => {
    const complaint = call.sentiment_analysis_results!.find((s) => s.text.includes('refund'));
    expect(complaint?.sentiment).toBe('NEGATIVE');
  });

  it('summarises with the legacy summary and speech_understanding, from sentences that were said', () => {
    const said = call.sentiment_analysis_results!.map((s) => s.text);
    expect(call.summary_type).toBe('bullets');
    const bullets = call.summary!.split('\n');
    expect(bullets.length).toBeGreaterThan(0);
    for (const line of bullets) expect(said).toContain(line.replace(/^- /, ''));
    const summarization = call.speech_understanding!.response.summarization as {
      status: string;
      summary: { start: number; end: number; text: string; headline: string }[];
    };
    expect(summarization.status).toBe('success');
    expect(summarization.summary.length).toBeGreaterThan(0);
    for (const section of summarization.summary) {
      expect(section.text.length).toBeGreaterThan(0);
      expect(call.text).toContain(section.headline);
      expect(section.end).toBeLessThanOrEqual(audioMs());
    }
  });

  it('lists the commitment and the request as action items quoting what was said', () => {
    const actions = call.speech_understanding!.response.action_items as {
      effort: string;
      items: { action_item: string; quote: string; timestamp: number }[];
    };
    expect(actions.effort).toBe('low');
    const quotes = actions.items.map((i) => i.quote);
    expect(quotes.some((q) => /^Please send me a new coffee machine/.test(q))).toBe(true);
    expect(quotes.some((q) => /^I will send the broken coffee machine back/.test(q))).toBe(true);
    for (const item of actions.items) {
      expect(call.text).toContain(item.quote);
      expect(item.timestamp).toBeLessThanOrEqual(audioMs());
    }
  });

  it('detects English with a confidence from the words', () => {
    expect(call.language_code).toBe('en');
    expect(call.language_confidence).toBeGreaterThan(0.5);
    expect(call.language_confidence).toBeLessThanOrEqual(1);
  });

  it('labels "damn" profanity', async () => {
    const t = await client.transcripts.transcribe(
      { audio: swearingWav, speech_models, content_safety: true },
      polling,
    );
    expect(t.text!.toLowerCase()).toContain('damn');
    const labels = t.content_safety_labels!.results.flatMap((r) => r.labels.map((l) => l.label));
    expect(labels).toContain('profanity');
  });

  it('ends a transcript below language_confidence_threshold in error with the docs’ message', async () => {
    const t = await client.transcripts.transcribe(
      { audio: swearingWav, speech_models, language_detection: true, language_confidence_threshold: 1 },
      polling,
    );
    expect(t.status).toBe('error');
    // The whole error is the docs' sentence, not a "Server error" wrapping it.
    expect(t.error).toMatch(
      /^detected language 'en', confidence 0\.\d{4}, is below the requested confidence threshold value of '1'$/,
    );
  });

  it('answers an English translation with the text itself and refuses other targets when created', async () => {
    const english = (await client.transcripts.transcribe(
      {
        audio: swearingWav,
        speech_models,
        speech_understanding: { request: { translation: { target_languages: ['en'] } } },
      } as unknown as Params,
      polling,
    )) as Transcript & { translated_texts?: Record<string, string> };
    expect(english.translated_texts).toEqual({ en: english.text });
    await expect(
      client.transcripts.submit({
        audio: swearingWav,
        speech_models,
        speech_understanding: { request: { translation: { target_languages: ['es'] } } },
      } as unknown as Params),
    ).rejects.toThrow(
      /speech_understanding request\.translation\.target_languages: the sandbox cannot translate/,
    );
  });
});
