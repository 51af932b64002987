import { describe, expect, expectTypeOf, it } from 'vitest';
import { type ErrorBody, errorBody, type SpeechModel } from '../../src/schemas/common.js';
import {
  paragraphsResponse,
  redactedAudioResponse,
  sentencesResponse,
  subtitleParams,
  wordSearchResponse,
  wordSearchWords,
} from '../../src/schemas/derived.js';
import { uploadedFile } from '../../src/schemas/files.js';
import { listTranscriptParams, type TranscriptList, transcriptList } from '../../src/schemas/list.js';
import { type TranscriptParams, transcriptParams } from '../../src/schemas/params.js';
import { type Transcript, transcript } from '../../src/schemas/transcripts.js';
import { transcriptWebhookNotification } from '../../src/schemas/webhooks.js';

const ID = '5551722f-f677-48a6-9287-39c0aafd9ac1';
const TEXT = 'Smoke from wildfires';
const span = { start: 250, end: 970 };
const ok = (schema: { safeParse(v: unknown): { success: boolean } }, v: unknown) =>
  schema.safeParse(v).success;
const word = (text: string, at: number) => ({
  text,
  start: at,
  end: at + 240,
  confidence: 0.9,
  speaker: 'A',
});
const words = [word('Smoke', 250), word('from', 490), word('wildfires', 730)];

/** Shaped like a real completed transcript with every audio-intelligence model on. */
const completed = {
  id: ID,
  status: 'completed',
  audio_url: 'https://assembly.ai/wildfires.mp3',
  text: TEXT,
  words,
  utterances: [{ text: TEXT, ...span, confidence: 0.98, speaker: 'A', words }],
  confidence: 0.98,
  audio_duration: 281,
  speech_models: ['universal-3-pro', 'universal-2'],
  speech_model_used: 'universal-3-pro',
  speech_model: null,
  language_code: 'en_us',
  language_confidence: null,
  language_confidence_threshold: null,
  punctuate: true,
  format_text: true,
  speaker_labels: true,
  speakers_expected: null,
  webhook_url: 'https://example.com/hook?order=42',
  webhook_auth: true,
  webhook_auth_header_name: 'X-Hook-Secret',
  webhook_status_code: 200,
  sentiment_analysis: true,
  sentiment_analysis_results: [
    { text: TEXT, ...span, sentiment: 'NEGATIVE', confidence: 0.64, speaker: 'A' },
  ],
  content_safety: true,
  content_safety_labels: {
    status: 'success',
    results: [
      {
        text: TEXT,
        labels: [
          { label: 'disasters', confidence: 0.81, severity: 0.41 },
          { label: 'negative_news', confidence: 0.6, severity: null },
        ],
        sentences_idx_start: 0,
        sentences_idx_end: 1,
        timestamp: span,
      },
    ],
    summary: { disasters: 0.99, negative_news: 0.6 },
    severity_score_summary: { disasters: { low: 0.5, medium: 0.4, high: 0.1 } },
  },
  entity_detection: true,
  entities: [{ entity_type: 'location', text: 'Canada', start: 2548, end: 3130 }],
  auto_highlights: true,
  auto_highlights_result: {
    status: 'success',
    results: [{ count: 1, rank: 0.08, text: 'wildfires', timestamps: [{ start: 730, end: 970 }] }],
  },
  iab_categories: true,
  iab_categories_result: {
    status: 'success',
    results: [
      { text: TEXT, labels: [{ relevance: 0.99, label: 'Science>Environment>Disasters' }], timestamp: span },
    ],
    summary: { 'Science>Environment>Disasters': 0.99 },
  },
  redact_pii: false,
  redact_pii_policies: null,
  summarization: false,
  summary: null,
  chapters: null,
  throttled: false,
  language_model: 'assemblyai_default',
  acoustic_model: 'assemblyai_default',
};

describe('transcript', () => {
  it('parses a realistic completed transcript', () => {
    const parsed = transcript.parse(completed);
    expect(parsed.content_safety_labels?.severity_score_summary.disasters?.high).toBe(0.1);
    expect(parsed.iab_categories_result?.summary['Science>Environment>Disasters']).toBe(0.99);
    expect(parsed.words?.[2]?.text).toBe('wildfires');
  });

  it('lets unknown fields and statuses through', () => {
    const parsed = transcript.parse({ ...completed, status: 'archived', brand_new_field: { x: 1 } });
    expect(parsed.status).toBe('archived');
    expect(parsed.brand_new_field).toEqual({ x: 1 });
  });

  it('requires only id, status and audio_url', () => {
    expect(ok(transcript, { id: ID, status: 'queued', audio_url: 'https://a/b.mp3' })).toBe(true);
    const { error } = transcript.safeParse({ ...completed, id: undefined });
    expect(error?.issues.map((issue) => issue.path)).toEqual([['id']]);
  });
});

describe('transcriptParams', () => {
  const minimal = { audio_url: 'https://a/b.mp3', speech_models: ['universal-3-pro'] };
  const pathsOf = (input: unknown) => transcriptParams.safeParse(input).error?.issues.map((i) => i.path);

  it('accepts a full request', () => {
    const full: TranscriptParams = {
      ...minimal,
      language_detection: true,
      language_detection_options: { expected_languages: ['en', 'es'], code_switching: true },
      speaker_labels: true,
      speaker_options: { min_speakers_expected: 2, max_speakers_expected: 4 },
      content_safety_confidence: 25,
      redact_pii: true,
      redact_pii_policies: ['person_name', 'phone_number'],
      redact_pii_sub: 'entity_name',
      redact_pii_audio_quality: 'wav',
      custom_spelling: [{ from: ['Decarlo'], to: 'DeCarlo' }],
      speech_understanding: { request: { translation: { target_languages: ['es'], formal: true } } },
      webhook_url: 'https://example.com/hook',
      webhook_auth_header_name: 'X-Hook-Secret',
      webhook_auth_header_value: 's3cret',
      speakers_expected: null,
      language_code: null,
    };
    expect(transcriptParams.parse(full)).toEqual(full);
  });

  it('requires speech_models, non-empty', () => {
    expect(pathsOf({ audio_url: minimal.audio_url })).toEqual([['speech_models']]);
    expect(pathsOf({ ...minimal, speech_models: [] })).toEqual([['speech_models']]);
  });

  it('accepts a model id released after this package', () => {
    expect(pathsOf({ ...minimal, speech_models: ['universal-4-ultra'] })).toBeUndefined();
  });

  it('checks ranges', () => {
    expect(pathsOf({ ...minimal, content_safety_confidence: 10 })).toEqual([['content_safety_confidence']]);
    expect(pathsOf({ ...minimal, content_safety_confidence: 50.5 })).toEqual([['content_safety_confidence']]);
    expect(pathsOf({ ...minimal, speech_threshold: 1.5 })).toEqual([['speech_threshold']]);
    expect(pathsOf({ ...minimal, audio_start_from: -1 })).toEqual([['audio_start_from']]);
    expect(pathsOf({ ...minimal, webhook_url: 'not a url' })).toEqual([['webhook_url']]);
  });

  it('rejects unknown keys, nested ones too', () => {
    const issues = transcriptParams.safeParse({ ...minimal, speaker_label: true }).error?.issues;
    expect(issues).toMatchObject([{ code: 'unrecognized_keys', keys: ['speaker_label'] }]);
    expect(pathsOf({ ...minimal, speaker_options: { min_speakers: 2 } })).toEqual([['speaker_options']]);
  });

  it('wants both webhook auth header fields or neither', () => {
    const name = 'webhook_auth_header_name';
    const value = 'webhook_auth_header_value';
    expect(pathsOf({ ...minimal, [name]: 'X-Secret' })).toEqual([[value]]);
    expect(pathsOf({ ...minimal, [value]: 's' })).toEqual([[name]]);
    expect(pathsOf({ ...minimal, [name]: null, [value]: null })).toBeUndefined();
  });
});

describe('list, derived outputs, uploads, webhooks', () => {
  const api = 'https://api.assemblyai.com/v2/transcript';

  it('parses a list page with offset-less timestamps kept as strings', () => {
    const item = { id: ID, resource_url: `${api}/${ID}`, status: 'completed', audio_url: 'https://a/b.mp3' };
    const older = `${api}?limit=1&before_id=${ID}`;
    const page = transcriptList.parse({
      page_details: { limit: 1, result_count: 1, current_url: api, prev_url: older, next_url: null },
      transcripts: [{ ...item, created: '2024-03-11T21:29:59.936851', completed: null, error: null }],
    });
    expect(page.transcripts[0]?.created).toBe('2024-03-11T21:29:59.936851');
  });

  it('checks list params', () => {
    expect(ok(listTranscriptParams, { limit: 200, status: 'error', created_on: '2024-03-11' })).toBe(true);
    expect(ok(listTranscriptParams, { limit: 201 })).toBe(false);
    expect(ok(listTranscriptParams, { created_on: '11/03/2024' })).toBe(false);
  });

  it('parses sentences, paragraphs, word search, redacted audio and uploads', () => {
    const base = { id: ID, confidence: 0.98, audio_duration: 281 };
    const sentence = { text: TEXT, ...span, confidence: 0.98, words, speaker: 'A' };
    expect(sentencesResponse.parse({ ...base, sentences: [sentence] }).sentences).toHaveLength(1);
    expect(paragraphsResponse.parse({ ...base, paragraphs: [sentence] }).paragraphs).toHaveLength(1);
    const timestamps = [
      [250, 490],
      [5000, 5200],
    ];
    const match = { text: 'smoke', count: 2, timestamps, indexes: [0, 17] };
    const search = wordSearchResponse.parse({ id: ID, total_count: 2, matches: [match] });
    expect(search.matches[0]?.timestamps[1]).toEqual([5000, 5200]);
    const audio = { status: 'redacted_audio_ready', redacted_audio_url: 'https://s3/redacted.mp3' };
    expect(redactedAudioResponse.parse(audio)).toEqual(audio);
    expect(ok(uploadedFile, { upload_url: 'https://cdn.assemblyai.com/upload/1' })).toBe(true);
  });

  it('checks word-search terms and subtitle params', () => {
    expect(ok(wordSearchWords, ['smoke', 'air quality alert'])).toBe(true);
    for (const bad of [[], [''], ['New York, NY'], ['one two three four five six']]) {
      expect(ok(wordSearchWords, bad)).toBe(false);
    }
    expect(ok(subtitleParams, { chars_per_caption: 32 })).toBe(true);
    expect(ok(subtitleParams, { chars_per_caption: 0 })).toBe(false);
  });

  it('tells the two webhook notifications apart', () => {
    const ready = transcriptWebhookNotification.parse({ transcript_id: ID, status: 'completed' });
    expect('transcript_id' in ready && ready.transcript_id).toBe(ID);
    const audio = { status: 'redacted_audio_ready', redacted_audio_url: 'https://s3/redacted.mp3' };
    expect(transcriptWebhookNotification.parse(audio)).toEqual(audio);
    expect(ok(transcriptWebhookNotification, { status: 'completed' })).toBe(false);
    expect(errorBody.parse({ error: 'Too Many Requests' }).error).toBe('Too Many Requests');
  });
});

describe('types', () => {
  it('keeps enums open and wire names snake_case', () => {
    expectTypeOf<'completed'>().toExtend<Transcript['status']>();
    expectTypeOf<string>().toExtend<Transcript['status']>();
    expectTypeOf<Transcript['audio_duration']>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<TranscriptParams['speech_models']>().toEqualTypeOf<SpeechModel[]>();
    expectTypeOf<'universal-4-ultra'>().toExtend<SpeechModel>();
    expectTypeOf<TranscriptParams['audio_url']>().toEqualTypeOf<string>();
    expectTypeOf<TranscriptList['transcripts'][number]['created']>().toEqualTypeOf<string>();
    expectTypeOf<ErrorBody['error']>().toEqualTypeOf<string>();
  });
});
