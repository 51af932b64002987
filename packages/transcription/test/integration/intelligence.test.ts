/**
 * Audio intelligence through this SDK against the sandbox over a real socket, on speech flite says and the
 * sandbox's PocketSphinx recognises. Each feature is asked through `client.transcripts.transcribe` and read
 * through the SDK's own types; what is asserted holds for any honest answer: what the results point at was
 * said and lies inside the audio, ranks and counts are well formed, the complaint is negative, the swear word
 * is profanity. The raw bodies are also parsed with our schema, so a field the emulator and our schema
 * disagree on fails here by name.
 */
import { synthesizeSpeech } from '@x/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Transcript,
  type TranscriptionClient,
  type TranscriptParams,
  transcriptSchema,
} from '../../src/index.js';
import { clientFor, sandbox } from '../helpers/sandbox.js';

/** A caller's complaint; the engine formats "eighty five" as "85". */
const COMPLAINT =
  'this is tom baker. my order number eighty five arrived broken and i want a refund. ' +
  'please send me a new coffee machine. i will send the broken coffee machine back tomorrow.';
/** flite's rms voice says "damn" so that PocketSphinx hears it (kal16's comes out otherwise). */
const SWEARING = 'the damn driver left the box outside';

let box: Awaited<ReturnType<typeof sandbox>>;
let client: TranscriptionClient;

beforeAll(async () => {
  box = await sandbox();
  client = clientFor(box);
});
afterAll(async () => {
  await box?.transcription.idle();
  await box?.close();
});

async function transcribe(
  audio: string,
  params: Omit<TranscriptParams, 'audio' | 'audio_url' | 'speech_models'>,
): Promise<Transcript> {
  return client.transcripts.transcribe(
    { audio, speech_models: ['universal-2'], ...params },
    { pollInterval: 50, maxPollInterval: 200, deadline: 60_000 },
  );
}

/** The transcript as the server sent it, past the client's own parse, judged by our schema. */
async function schemaIssues(id: string): Promise<unknown> {
  const res = await fetch(`${box.url}/v2/transcript/${id}`, {
    headers: { authorization: box.transcription.apiKey },
  });
  return transcriptSchema.safeParse(await res.json()).error?.issues;
}

/** The end of the audio in ms: `audio_duration` is whole seconds, so up to one more second is inside. */
const audioEnd = (t: Transcript) => ((t.audio_duration ?? 0) + 1) * 1000;

describe('a spoken complaint with every text feature asked', () => {
  let call: Transcript;

  beforeAll(async () => {
    call = await transcribe(await synthesizeSpeech(COMPLAINT, { voice: 'kal16' }), {
      entity_detection: true,
      auto_highlights: true,
      sentiment_analysis: true,
      language_detection: true,
      summarization: true,
      summary_model: 'informative',
      summary_type: 'bullets',
    });
  });

  it('completes, recognised, and the body parses with our schema', async () => {
    expect(call.error).toBeUndefined();
    expect(call.status).toBe('completed');
    for (const word of ['order', '85', 'broken', 'refund']) expect(call.text?.toLowerCase()).toContain(word);
    expect(await schemaIssues(call.id)).toBeUndefined();
  });

  it('entities: each text occurs in the transcript and its span lies within the audio', () => {
    const entities = call.entities ?? [];
    expect(entities.length).toBeGreaterThan(0);
    expect(entities.map((e) => e.text)).toContain('85');
    for (const e of entities) {
      expect(call.text).toContain(e.text);
      expect(e.start).toBeGreaterThanOrEqual(0);
      expect(e.start).toBeLessThan(e.end);
      expect(e.end).toBeLessThanOrEqual(audioEnd(call));
      // The span starts on a word the entity starts with.
      const first = call.words?.find((w) => w.start === e.start);
      expect(first, `no word starts at ${e.start} ms`).toBeDefined();
      expect(e.text.toLowerCase().startsWith(first!.text.toLowerCase().replace(/[.,?!]$/, ''))).toBe(true);
    }
  });

  it('key phrases: ranks in 0..1 and descending, counts >= 1 with one timestamp each, inside the audio', () => {
    const highlights = call.auto_highlights_result;
    expect(highlights?.status).toBe('success');
    const results = highlights?.results ?? [];
    expect(results.length).toBeGreaterThan(0);
    expect(results[0]?.rank).toBe(1);
    for (const [i, r] of results.entries()) {
      expect(r.rank).toBeGreaterThan(0);
      expect(r.rank).toBeLessThanOrEqual(1);
      if (i > 0) expect(r.rank).toBeLessThanOrEqual(results[i - 1]!.rank);
      expect(r.count).toBeGreaterThanOrEqual(1);
      expect(r.timestamps).toHaveLength(r.count);
      expect(call.text?.toLowerCase()).toContain(r.text.toLowerCase());
      for (const t of r.timestamps) {
        expect(t.start).toBeLessThan(t.end);
        expect(t.end).toBeLessThanOrEqual(audioEnd(call));
      }
    }
    // "coffee machine" is said twice.
    expect(results.find((r) => r.text === 'coffee machine')?.count).toBe(2);
  });

  it('sentiment: the complaint is NEGATIVE', () => {
    const sentences = call.sentiment_analysis_results ?? [];
    const complaint = sentences.find((s) => /order number 85 arrived broken/i.test(s.text));
    expect(complaint?.text).toMatch(/refund/i);
    expect(complaint?.sentiment).toBe('NEGATIVE');
    for (const s of sentences) {
      expect(s.confidence).toBeGreaterThan(0);
      expect(s.confidence).toBeLessThanOrEqual(1);
      expect(s.end).toBeLessThanOrEqual(audioEnd(call));
    }
  });

  it('the legacy summary is non-empty and made of spoken words', () => {
    const summary = call.summary ?? '';
    expect(summary).not.toBe('');
    expect(call.summary_type).toBe('bullets');
    const spoken = new Set((call.words ?? []).map((w) => bare(w.text)));
    for (const word of summary.split(/\s+/).map(bare).filter(Boolean)) expect(spoken).toContain(word);
  });

  it('language detection: English, with a confidence in 0..1', () => {
    expect(call.language_code).toBe('en');
    expect(call.language_confidence).toBeGreaterThanOrEqual(0);
    expect(call.language_confidence).toBeLessThanOrEqual(1);
  });
});

/** A word without case, bullet or punctuation around it. */
function bare(word: string): string {
  return word.toLowerCase().replace(/^[-•]+|[.,?!:;]+$/g, '');
}

describe('content safety', () => {
  it('"damn" (voice rms) is labelled profanity, with confidence and severity in 0..1', async () => {
    const t = await transcribe(await synthesizeSpeech(SWEARING, { voice: 'rms' }), { content_safety: true });
    expect(t.text?.toLowerCase()).toContain('damn');
    const safety = t.content_safety_labels;
    expect(safety?.status).toBe('success');
    const flagged = (safety?.results ?? []).filter((r) => r.labels.some((l) => l.label === 'profanity'));
    expect(flagged.length).toBeGreaterThan(0);
    for (const r of flagged) {
      expect(r.text.toLowerCase()).toContain('damn');
      expect(r.timestamp.end).toBeLessThanOrEqual(audioEnd(t));
      for (const l of r.labels) {
        expect(l.confidence).toBeGreaterThan(0);
        expect(l.confidence).toBeLessThanOrEqual(1);
        if (l.severity != null) expect(l.severity).toBeLessThanOrEqual(1);
      }
    }
    expect(safety?.summary.profanity).toBeGreaterThan(0);
    expect(await schemaIssues(t.id)).toBeUndefined();
  });
});

describe('speech_understanding summarization and action items', () => {
  it('a paragraph summary and action items quote what was said, every time inside the audio', async () => {
    const t = await transcribe(await synthesizeSpeech(COMPLAINT, { voice: 'kal16' }), {
      speech_understanding: {
        request: { summarization: { summary_type: 'paragraph' }, action_items: { effort: 'low' } },
      },
    });
    const response = t.speech_understanding?.response;
    expect(response?.summarization?.status).toBe('success');
    const sections = response?.summarization?.summary ?? [];
    expect(sections.length).toBeGreaterThan(0);
    for (const section of sections) {
      expect(section.text).not.toBe('');
      expect(section.start).toBeLessThanOrEqual(section.end);
      expect(section.end).toBeLessThanOrEqual(audioEnd(t));
      if (section.headline !== undefined) expect(t.text).toContain(section.headline);
    }
    const items = response?.action_items?.items ?? [];
    expect(items.map((i) => i.quote)).toContainEqual(expect.stringMatching(/^Please send me a new coffee/));
    for (const item of items) {
      expect(item.action_item).not.toBe('');
      expect(t.text).toContain(item.quote);
    }
    expect(await schemaIssues(t.id)).toBeUndefined();
  });
});
