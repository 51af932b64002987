/**
 * `speech_understanding` with several tasks in one request, through the client against the sandbox over a
 * real socket, on speech flite says and the sandbox's PocketSphinx recognises. What is asserted holds for
 * any honest answer: the request is accepted and echoed, the transcript parses with our schema, each task
 * asked has an answer and no other, and what the answers point at was really said.
 */
import { synthesizeSpeech } from '@x/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Transcript,
  type TranscriptionClient,
  type TranscriptParams,
  transcriptSchema,
  ValidationError,
} from '../../src/index.js';
import { clientFor, sandbox } from '../helpers/sandbox.js';

let box: Awaited<ReturnType<typeof sandbox>>;
let client: TranscriptionClient;

beforeAll(async () => {
  box = await sandbox();
  client = clientFor(box);
});
afterAll(() => box?.close());

const REQUEST = {
  // The sandbox translates nothing, so English is the target it can answer honestly.
  translation: { target_languages: ['en'], effort: 'low' },
  speaker_identification: { speaker_type: 'role', known_values: ['agent', 'customer'] },
  custom_formatting: { phone_number: '(xxx)xxx-xxxx' },
  summarization: { summary_type: 'bullets', effort: 'medium' },
  action_items: { effort: 'medium' },
} satisfies NonNullable<TranscriptParams['speech_understanding']>['request'];

const SPOKEN =
  'thank you for calling. my order arrived broken. i will send you a replacement today. please call me back tomorrow.';

describe('speech_understanding, five tasks in one request', () => {
  let done: Transcript;

  beforeAll(async () => {
    done = await client.transcripts.transcribe(
      {
        audio: await synthesizeSpeech(SPOKEN, { voice: 'kal16' }),
        speech_models: ['universal-2'],
        speaker_labels: true,
        speech_understanding: { request: REQUEST },
      },
      { pollInterval: 50 },
    );
  });

  it('is accepted, completes, and echoes the request as sent', () => {
    expect(done.error).toBeUndefined();
    expect(done.status).toBe('completed');
    expect(done.speech_understanding?.request).toMatchObject(REQUEST);
  });

  it('the transcript as the server sent it parses with our schema', async () => {
    // Read past the client (which has parsed it already) to judge the body itself.
    const res = await fetch(`${box.url}/v2/transcript/${done.id}`, {
      headers: { authorization: box.transcription.apiKey },
    });
    const raw: unknown = await res.json();
    expect(raw).toMatchObject({ speech_understanding: { request: REQUEST } });
    const parsed = transcriptSchema.safeParse(raw);
    expect(parsed.error?.issues).toBeUndefined();
  });

  it('answers each task asked, and only those', () => {
    expect(Object.keys(done.speech_understanding?.response ?? {}).sort()).toEqual(
      Object.keys(REQUEST).sort(),
    );
  });

  it('the answers point at what was said', () => {
    const response = done.speech_understanding?.response;
    const text = done.text ?? '';
    const end = Math.max(...(done.words ?? []).map((w) => w.end));
    const sections = response?.summarization?.summary ?? [];
    expect(sections.length).toBeGreaterThan(0);
    for (const section of sections) {
      expect(section.text).not.toBe('');
      expect(section.start).toBeLessThanOrEqual(section.end);
      expect(section.end).toBeLessThanOrEqual(end);
    }
    // "i will send you a replacement today" and "please call me back tomorrow" are commitments and asks.
    const items = response?.action_items?.items ?? [];
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      expect(text).toContain(item.quote);
      expect(item.action_item).not.toBe('');
    }
    expect(response?.action_items?.effort).toBe('medium');
    expect(done.translated_texts?.en).toBe(text);
    // The mapping names only the roles offered.
    for (const role of Object.values(response?.speaker_identification?.mapping ?? {}))
      expect(REQUEST.speaker_identification.known_values).toContain(role);
  });
});

describe('refused before anything is sent', () => {
  const base = { audio_url: 'https://example.com/call.mp3', speech_models: ['universal-2'] };

  async function refused(params: Record<string, unknown>): Promise<ValidationError> {
    const before = box.transcription.stats().requests;
    const error = await client.transcripts.submit(params as TranscriptParams).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(box.transcription.stats().requests).toBe(before);
    return error as ValidationError;
  }

  it('a misspelt task, named by its path with the task it meant', async () => {
    const error = await refused({
      ...base,
      speech_understanding: { request: { ...REQUEST, actionitems: {} } },
    });
    expect(error.issues).toContainEqual({
      path: 'speech_understanding.request.actionitems',
      message: expect.stringMatching(/^unknown field \(did you mean "action_items"\?\)/),
    });
  });

  it('a misspelt option inside a task, named by its path', async () => {
    const error = await refused({
      ...base,
      speech_understanding: { request: { summarization: { sumary_type: 'bullets' } } },
    });
    expect(error.issues.map((i) => i.path)).toEqual([
      'speech_understanding.request.summarization.sumary_type',
    ]);
    expect(error.issues[0]?.message).toContain('did you mean "summary_type"?');
  });

  it('deprecated summarization options still reach the service', async () => {
    const t = await client.transcripts.submit({
      ...base,
      summarization: true,
      summary_model: 'informative',
      summary_type: 'bullets',
    });
    expect(t.status).toBe('queued');
  });
});
