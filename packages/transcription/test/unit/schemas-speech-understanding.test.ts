/**
 * `speech_understanding` as the docs (2026) have it: several tasks in one request, `effort`, strict
 * request objects whose issues name the path, and the transcript's typed `{request, response}`.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { type TranscriptParams, transcriptParams } from '../../src/schemas/params.js';
import type { SummarySection } from '../../src/schemas/results.js';
import { type Transcript, transcript } from '../../src/schemas/transcripts.js';

const base = { audio_url: 'https://assembly.ai/wildfires.mp3', speech_models: ['universal-2'] };
const withRequest = (request: unknown) => ({ ...base, speech_understanding: { request } });

const ALL_TASKS = {
  translation: {
    target_languages: ['es', 'de'],
    formal: true,
    match_original_utterance: true,
    effort: 'medium',
  },
  speaker_identification: { speaker_type: 'role', known_values: ['agent', 'customer'], effort: 'low' },
  custom_formatting: { date: 'mm/dd/yyyy', phone_number: '(xxx)xxx-xxxx', email: 'username@domain.com' },
  summarization: { summary_type: 'bullets', effort: 'medium' },
  action_items: {},
};

/** The paths of a refused request's issues, dotted. */
function refusedAt(params: unknown): string[] {
  const result = transcriptParams.safeParse(params);
  expect(result.success).toBe(false);
  return (result.error?.issues ?? []).map((i) => i.path.join('.'));
}

describe('speech_understanding request', () => {
  it('takes all five tasks at once, effort included', () => {
    const result = transcriptParams.safeParse(withRequest(ALL_TASKS));
    expect(result.error?.issues).toBeUndefined();
    expect(result.data?.speech_understanding?.request).toEqual(ALL_TASKS);
  });

  it('takes each task alone, as the single-task requests of before', () => {
    for (const [task, options] of Object.entries(ALL_TASKS))
      expect(transcriptParams.safeParse(withRequest({ [task]: options })).success, task).toBe(true);
  });

  it('a misspelt task or task option fails naming where it is', () => {
    // The unknown key, and (no task being left) the list of the tasks there are, which shows the spelling.
    const misspelt = transcriptParams.safeParse(withRequest({ summarisation: {} }));
    expect(misspelt.error?.issues).toMatchObject([
      { path: ['speech_understanding', 'request'], code: 'unrecognized_keys', keys: ['summarisation'] },
      {
        path: ['speech_understanding', 'request'],
        message: expect.stringContaining('summarization, action_items'),
      },
    ]);
    expect(refusedAt(withRequest({ summarization: { summary_typ: 'bullets' } }))).toEqual([
      'speech_understanding.request.summarization',
    ]);
    expect(refusedAt(withRequest({ action_items: { efort: 'low' } }))).toEqual([
      'speech_understanding.request.action_items',
    ]);
    expect(refusedAt({ ...base, speech_understanding: { request: ALL_TASKS, response: {} } })).toEqual([
      'speech_understanding',
    ]);
  });

  it('an empty request, no request, or a translation without targets is refused', () => {
    expect(refusedAt(withRequest({}))).toEqual(['speech_understanding.request']);
    expect(refusedAt({ ...base, speech_understanding: {} })).toEqual(['speech_understanding.request']);
    expect(refusedAt(withRequest({ translation: { target_languages: [] } }))).toEqual([
      'speech_understanding.request.translation.target_languages',
    ]);
  });

  it('speaker_type "role" needs known_values (or speakers); "name" does not', () => {
    expect(refusedAt(withRequest({ speaker_identification: { speaker_type: 'role' } }))).toEqual([
      'speech_understanding.request.speaker_identification.known_values',
    ]);
    for (const task of [
      { speaker_type: 'name' },
      { speaker_type: 'role', speakers: [{ role: 'agent', description: 'answers the phone', company: 'x' }] },
    ])
      expect(transcriptParams.safeParse(withRequest({ speaker_identification: task })).success).toBe(true);
  });

  it('effort is open: a level added later reaches the server; a non-string is refused', () => {
    expect(transcriptParams.safeParse(withRequest({ action_items: { effort: 'high' } })).success).toBe(true);
    expect(refusedAt(withRequest({ action_items: { effort: 2 } }))).toEqual([
      'speech_understanding.request.action_items.effort',
    ]);
  });

  it('deprecated options stay accepted, so old callers keep working', () => {
    const old = {
      ...base,
      summarization: true,
      summary_model: 'informative',
      summary_type: 'bullets',
      auto_chapters: false,
      custom_topics: false,
      topics: [],
    };
    expect(transcriptParams.safeParse(old).success).toBe(true);
    expectTypeOf<TranscriptParams['auto_chapters']>().toEqualTypeOf<boolean | undefined>();
  });

  it('language_detection_options.on_low_language_confidence (the SDK sends it) is accepted', () => {
    const params = {
      ...base,
      language_detection: true,
      language_detection_options: { on_low_language_confidence: 'fallback' },
    };
    expect(transcriptParams.safeParse(params).success).toBe(true);
  });
});

describe('speech_understanding on a transcript', () => {
  /** As the docs' example outputs show each task's answer. */
  const answered = {
    id: 't1',
    status: 'completed',
    audio_url: base.audio_url,
    text: 'Call me at 555 123 4567. I will send the report.',
    speech_understanding: {
      request: { ...ALL_TASKS, summarization: { ...ALL_TASKS.summarization, added_by_server: 1 } },
      response: {
        translation: { status: 'completed' },
        speaker_identification: { status: 'completed', mapping: { A: 'agent', B: 'customer' } },
        custom_formatting: {
          status: 'completed',
          mapping: { '555 123 4567': '(555)123-4567' },
          formatted_text: 'Call me at (555)123-4567. I will send the report.',
          formatted_utterances: [
            { text: 'Call me at (555)123-4567.', start: 0, end: 2500, confidence: 0.9, speaker: 'A' },
          ],
        },
        summarization: {
          status: 'success',
          summary: [{ start: 240, end: 37100, text: 'A call about a report.', headline: 'The report' }],
        },
        action_items: {
          effort: 'low',
          items: [{ action_item: 'Send the report.', quote: 'I will send the report.', timestamp: 2600 }],
        },
        a_task_from_next_year: { status: 'success' },
      },
    },
    translated_texts: { es: 'Llámame…' },
  };

  it('parses every task, keeps what the server adds, and types the answers', () => {
    const result = transcript.safeParse(answered);
    expect(result.error?.issues).toBeUndefined();
    const su = result.data?.speech_understanding;
    expect(su?.response?.summarization?.summary?.[0]?.headline).toBe('The report');
    expect(su?.response?.action_items?.items?.[0]?.quote).toBe('I will send the report.');
    expect(su?.response?.speaker_identification?.mapping).toEqual({ A: 'agent', B: 'customer' });
    expect(su?.request?.summarization).toMatchObject({ added_by_server: 1 });
    expect(su?.response).toHaveProperty('a_task_from_next_year');
    expectTypeOf<NonNullable<NonNullable<Transcript['speech_understanding']>['response']>['summarization']>()
      .exclude<undefined>()
      .toHaveProperty('summary')
      .toEqualTypeOf<SummarySection[] | undefined>();
  });

  it('a task that failed may carry only its status; a summary section without text is refused', () => {
    const failed = {
      ...answered,
      speech_understanding: { response: { summarization: { status: 'error' } } },
    };
    expect(transcript.safeParse(failed).success).toBe(true);
    const broken = {
      ...answered,
      speech_understanding: { response: { summarization: { summary: [{ start: 0, end: 1 }] } } },
    };
    const issues = transcript.safeParse(broken).error?.issues.map((i) => i.path.join('.'));
    expect(issues).toEqual(['speech_understanding.response.summarization.summary.0.text']);
  });
});
