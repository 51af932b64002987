/**
 * What POST /v2/transcript refuses when the transcript is created (400 `{"error": "..."}` naming the field), judged
 * by the official `assemblyai` SDK 4.41.5 (it throws `new Error(body.error)`, src/services/base.ts) and by raw
 * fetch (status and body shape): a `custom_spelling` `to` of several words (custom-spelling.mdx: "the `to` key
 * must only contain one word") and `speaker_options` that are not a range of counts (openapi.yml: integers,
 * `additionalProperties: false`), which used to be found only when the job ran. The valid neighbours of each are
 * accepted, and so are fields a speech_understanding task does not know: openapi.yml does not close the task
 * bodies (no `additionalProperties: false`), as it does not close the top level; such a transcript completes.
 */
import { AssemblyAI } from 'assemblyai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox, synthesizeSpeech } from '../../src/index.js';

const speech_models = ['universal-2'];
/** Nothing listens on port 9: an accepted job fails its download at once. */
const audio_url = 'http://127.0.0.1:9/call.wav';

const REFUSED: [name: string, body: Record<string, unknown>, field: RegExp][] = [
  [
    'custom_spelling to of two words',
    { custom_spelling: [{ from: ['sequel'], to: 'S Q L' }] },
    /custom_spelling\[0\]\.to must be a single word/,
  ],
  [
    'custom_spelling to of a megabyte with a space in it',
    {
      custom_spelling: [
        { from: ['a'], to: 'b' },
        { from: ['x'], to: `${'y'.repeat(1024 * 1024 - 1000)} z` },
      ],
    },
    /custom_spelling\[1\]\.to must be a single word/,
  ],
  [
    'custom_spelling to with a tab between words',
    { custom_spelling: [{ from: ['a'], to: 'b\tc' }] },
    /custom_spelling\[0\]\.to/,
  ],
  [
    'speaker_options min above max',
    { speaker_options: { min_speakers_expected: 4, max_speakers_expected: 2 } },
    /speaker_options\.min_speakers_expected must not be greater/,
  ],
  [
    'speaker_options negative max',
    { speaker_options: { max_speakers_expected: -3 } },
    /speaker_options\.max_speakers_expected must be an integer/,
  ],
  [
    'speaker_options non-integer min',
    { speaker_options: { min_speakers_expected: 2.5 } },
    /speaker_options\.min_speakers_expected must be an integer/,
  ],
  [
    'speaker_options zero min',
    { speaker_options: { min_speakers_expected: 0 } },
    /speaker_options\.min_speakers_expected/,
  ],
  [
    'speaker_options a string count',
    { speaker_options: { min_speakers_expected: '2' } },
    /speaker_options\.min_speakers_expected/,
  ],
  [
    'speaker_options unknown field',
    { speaker_options: { max_speakers: 3 } },
    /speaker_options has no field "max_speakers"/,
  ],
];

const ACCEPTED: [name: string, body: Record<string, unknown>][] = [
  [
    'custom_spelling: one-word to, several-word from',
    { custom_spelling: [{ from: ['sequel', 'see quell'], to: 'SQL' }] },
  ],
  [
    'custom_spelling: to with edge spaces only',
    { custom_spelling: [{ from: ['gettleman'], to: ' Gettleman ' }] },
  ],
  [
    'every task with its documented fields and effort',
    {
      speaker_labels: true,
      speech_understanding: {
        request: {
          translation: {
            target_languages: ['en'],
            formal: true,
            match_original_utterance: false,
            effort: 'low',
          },
          speaker_identification: {
            speaker_type: 'role',
            known_values: ['agent'],
            speakers: [{ role: 'agent' }],
            effort: 'medium',
          },
          custom_formatting: {
            date: 'mm/dd/yyyy',
            phone_number: '(xxx)xxx-xxxx',
            email: 'username@domain.com',
            effort: 'low',
          },
          summarization: { summary_type: 'bullets', effort: 'low' },
          action_items: { effort: 'low' },
        },
      },
    },
  ],
  [
    'speaker_options min equal to max',
    { speaker_labels: true, speaker_options: { min_speakers_expected: 2, max_speakers_expected: 2 } },
  ],
  ['speaker_options min only', { speaker_labels: true, speaker_options: { min_speakers_expected: 3 } }],
  [
    'tasks with fields they do not know (a newer service may take them)',
    {
      speech_understanding: {
        request: {
          translation: { target_languages: ['en'], target_language: 'de' },
          speaker_identification: { speaker_type: 'name', names: ['Tom'] },
          custom_formatting: { date: 'mm/dd/yyyy', currency: 'EUR' },
          action_items: { max_items: 3 },
        },
      },
    },
  ],
];

/** Unknown task fields beside known ones whose values are still checked. */
const UNKNOWN_TASK_FIELDS = {
  translation: { target_languages: ['en'], target_language: 'de', future_option: { nested: [1, 2] } },
  custom_formatting: { date: 'mm/dd/yyyy', currency: 'EUR' },
  summarization: { summary_type: 'gist', max_length: 20 },
  action_items: { max_items: 3 },
};

describe('POST /v2/transcript refuses at creation what the service refuses', () => {
  let sandbox: Sandbox<false>;
  let client: AssemblyAI;
  let key: string;

  beforeAll(async () => {
    sandbox = await startSandbox({ store: false, transcription: { rateLimit: false } });
    key = sandbox.transcription!.apiKey;
    client = new AssemblyAI({ apiKey: key, baseUrl: sandbox.url });
  });

  afterAll(async () => {
    await sandbox?.transcription?.idle();
    await sandbox?.close();
  });

  const post = async (body: Record<string, unknown>) => {
    const response = await fetch(`${sandbox.url}/v2/transcript`, {
      method: 'POST',
      headers: { authorization: key, 'content-type': 'application/json' },
      body: JSON.stringify({ audio_url, speech_models, ...body }),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };

  it.each(REFUSED)(
    '%s: 400 {"error"} naming the field, over raw fetch and through the SDK',
    async (_, body, field) => {
      const { status, json } = await post(body);
      expect(status).toBe(400);
      expect(Object.keys(json)).toEqual(['error']);
      expect(json.error).toMatch(field);
      expect((json.error as string).length).toBeLessThan(300);
      await expect(client.transcripts.submit({ audio_url, speech_models, ...body } as never)).rejects.toThrow(
        field,
      );
    },
  );

  it.each([
    [{ translation: { target_languages: 'en', extra: 1 } }, /request\.translation\.target_languages must be/],
    [{ custom_formatting: { date: 5, extra: 1 } }, /request\.custom_formatting\.date must be/],
    [{ summarization: { summary_type: 'long', extra: 1 } }, /request\.summarization\.summary_type must be/],
    [{ action_items: { effort: 'high', extra: 1 } }, /request\.action_items\.effort must be/],
  ])(
    'a known task field with a bad value is still refused beside an unknown one (%j)',
    async (request, field) => {
      const { status, json } = await post({ speech_understanding: { request } });
      expect(status).toBe(400);
      expect(json.error).toMatch(field);
    },
  );

  it('a transcript whose tasks carry unknown fields completes, the request echoed as sent', async () => {
    const audio = await synthesizeSpeech('please send me a new coffee machine tomorrow', { voice: 'kal16' });
    const transcript = (await client.transcripts.transcribe(
      { audio, speech_models, speech_understanding: { request: UNKNOWN_TASK_FIELDS } } as never,
      { pollingInterval: 100, pollingTimeout: 30_000 },
    )) as { status: string; error?: string; speech_understanding?: { request: unknown; response: object } };
    expect(transcript.error).toBeUndefined();
    expect(transcript.status).toBe('completed');
    expect(transcript.speech_understanding?.request).toEqual(UNKNOWN_TASK_FIELDS);
    expect(Object.keys(transcript.speech_understanding!.response).sort()).toEqual(
      Object.keys(UNKNOWN_TASK_FIELDS).sort(),
    );
  });

  it.each(ACCEPTED)('%s: accepted (200, queued)', async (_, body) => {
    const { status, json } = await post(body);
    expect(status).toBe(200);
    expect(json.status).toBe('queued');
    const submitted = await client.transcripts.submit({ audio_url, speech_models, ...body } as never);
    expect(submitted.status).toBe('queued');
  });
});
