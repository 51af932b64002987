/**
 * Contract: the official AssemblyAI SDK `assemblyai` 4.41.5, used as its README shows (with `baseUrl` pointed at the
 * sandbox), must work against the transcription emulator as it works against api.assemblyai.com (v2 REST).
 *
 * Expected behaviour comes from AssemblyAI's openapi.yml (AssemblyAI/assemblyai-api-spec) and the SDK's own
 * source (src/services/transcripts, src/services/files, src/services/base.ts: errors are thrown as
 * `new Error(body.error)`). Speech is synthesised at test time with flite and really recognised by PocketSphinx.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AssemblyAI, type Transcript } from 'assemblyai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox, synthesizeSpeech } from '../../src/index.js';

/** The emulator, like the service, requires `speech_models`; the SDK's types leave it optional. */
const speech_models = ['universal-2'];
/** Poll fast: the SDK's default is every 3 s. */
const polling = { pollingInterval: 100, pollingTimeout: 25_000 };

const COMPLAINT = 'the earthquake destroyed the house and i am very angry';
const PHONE = 'please call me at five five five one two three four';

describe('official assemblyai SDK against the transcription emulator', () => {
  let sandbox: Sandbox<false>;
  let client: AssemblyAI;
  let complaintWav: string;
  let phoneWav: string;
  let notAudio: Buffer;
  /** Filled by the tests in order: the file runs sequentially and later views reuse one recognition. */
  let fromPath: string;
  let fromBuffer: string;
  let analysed: Transcript;
  let submitted: Transcript;

  beforeAll(async () => {
    sandbox = await startSandbox({
      store: false,
      transcription: { rateLimit: false, webhooks: { retryDelayMs: 50 } },
    });
    client = new AssemblyAI({ apiKey: sandbox.transcription!.apiKey, baseUrl: sandbox.url });
    [complaintWav, phoneWav] = await Promise.all([
      synthesizeSpeech(COMPLAINT, { voice: 'kal16' }),
      synthesizeSpeech(PHONE, { voice: 'kal16' }),
    ]);
    notAudio = Buffer.from('This is a plain text file, not audio.\n'.repeat(200));
  });

  afterAll(async () => {
    await sandbox?.transcription?.idle();
    await sandbox?.close();
  });

  it('files.upload takes a local path and a Buffer and answers an upload_url on the sandbox', async () => {
    fromPath = await client.files.upload(complaintWav);
    fromBuffer = await client.files.upload(await readFile(complaintWav));
    for (const url of [fromPath, fromBuffer]) {
      expect(url.startsWith(`${sandbox.url}/v2/upload/`)).toBe(true);
    }
    expect(fromPath).not.toBe(fromBuffer);
  });

  it('transcribe with sentiment_analysis and content_safety: completed, recognised, analysed as the types say', async () => {
    analysed = await client.transcripts.transcribe(
      { audio: fromPath, speech_models, sentiment_analysis: true, content_safety: true },
      polling,
    );
    expect(analysed.status).toBe('completed');
    expect(analysed.error).toBeUndefined();
    expect(analysed).toMatchObject({
      audio_url: fromPath,
      speech_models,
      speech_model_used: 'universal-2',
      sentiment_analysis: true,
      content_safety: true,
      language_code: 'en_us',
      acoustic_model: expect.any(String),
      language_model: expect.any(String),
      webhook_auth: false,
      redact_pii: false,
      summarization: false,
    });
    const text = analysed.text!.toLowerCase();
    for (const word of ['earthquake', 'destroyed', 'house', 'angry']) expect(text).toContain(word);
    expect(analysed.audio_duration).toBeGreaterThan(0);
    expect(analysed.confidence).toBeGreaterThan(0);
    expect(analysed.words!.map((w) => w.text).join(' ')).toBe(analysed.text);
    for (const w of analysed.words!) {
      expect(w).toMatchObject({
        text: expect.any(String),
        start: expect.any(Number),
        end: expect.any(Number),
      });
      expect(w.end).toBeGreaterThan(w.start);
      expect(w.confidence).toBeGreaterThanOrEqual(0);
      expect(w.confidence).toBeLessThanOrEqual(1);
      expect(w.speaker).toBeNull();
    }

    const sentiments = analysed.sentiment_analysis_results!;
    expect(sentiments.length).toBeGreaterThan(0);
    for (const s of sentiments) {
      expect(s).toMatchObject({
        text: expect.any(String),
        start: expect.any(Number),
        end: expect.any(Number),
      });
      expect(['POSITIVE', 'NEUTRAL', 'NEGATIVE']).toContain(s.sentiment);
      expect(s.confidence).toBeGreaterThanOrEqual(0);
      expect(s.confidence).toBeLessThanOrEqual(1);
      expect(s.speaker).toBeNull();
    }
    expect(sentiments.map((s) => s.text).join(' ')).toBe(analysed.text);
    expect(sentiments[0]!.sentiment).toBe('NEGATIVE');

    const safety = analysed.content_safety_labels!;
    expect(safety.status).toBe('success');
    expect(safety.results.length).toBeGreaterThan(0);
    for (const r of safety.results) {
      expect(r).toMatchObject({
        text: expect.any(String),
        sentences_idx_start: expect.any(Number),
        sentences_idx_end: expect.any(Number),
        timestamp: { start: expect.any(Number), end: expect.any(Number) },
      });
      expect(r.sentences_idx_end).toBeGreaterThanOrEqual(r.sentences_idx_start);
      for (const l of r.labels) {
        expect(l).toMatchObject({ label: expect.any(String), confidence: expect.any(Number) });
        expect(l.confidence).toBeGreaterThanOrEqual(0.5);
      }
    }
    const disasters = safety.results.flatMap((r) => r.labels).find((l) => l.label === 'disasters');
    expect(disasters?.severity).toBeGreaterThan(0);
    expect(safety.summary.disasters).toBeGreaterThan(0);
    expect(safety.severity_score_summary.disasters).toEqual({
      low: expect.any(Number),
      medium: expect.any(Number),
      high: expect.any(Number),
    });
  });

  it('submit answers a queued transcript; waitUntilReady polls it to completed; get reads the same', async () => {
    submitted = await client.transcripts.submit({ audio_url: fromBuffer, speech_models });
    expect(submitted.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(['queued', 'processing']).toContain(submitted.status);
    expect(submitted.text).toBeNull();
    const ready = await client.transcripts.waitUntilReady(submitted.id, polling);
    expect(ready.status).toBe('completed');
    // The same audio (uploaded as a Buffer instead of a path) is recognised the same.
    expect(ready.text).toBe(analysed.text);
    expect(ready.sentiment_analysis_results).toBeNull();
    expect(ready.content_safety_labels).toBeNull();
    expect(await client.transcripts.get(submitted.id)).toEqual(ready);
  });

  it('list: newest first with Date timestamps, limit, status filter, and paging through prev_url', async () => {
    const all = await client.transcripts.list();
    expect(all.transcripts.map((t) => t.id)).toEqual([submitted.id, analysed.id]);
    expect(all.page_details).toMatchObject({ limit: 10, result_count: 2, prev_url: null, next_url: null });
    const item = all.transcripts[1]!;
    expect(item).toMatchObject({
      id: analysed.id,
      status: 'completed',
      audio_url: fromPath,
      error: null,
      resource_url: `${sandbox.url}/v2/transcript/${analysed.id}`,
    });
    expect(item.created).toBeInstanceOf(Date);
    expect(item.completed).toBeInstanceOf(Date);
    expect(item.completed!.getTime()).toBeGreaterThanOrEqual(item.created.getTime());

    // The wire timestamps are UTC without an offset (as the service writes them); the SDK hands them to
    // `new Date()`, which reads an offset-less date-time as LOCAL time, so its Dates are off by the local offset.
    const raw = (await (
      await fetch(all.page_details.current_url, { headers: { Authorization: sandbox.transcription!.apiKey } })
    ).json()) as { transcripts: { created: string }[] };
    expect(raw.transcripts[1]!.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
    expect(item.created.getTime()).toBe(new Date(raw.transcripts[1]!.created).getTime());

    const first = await client.transcripts.list({ limit: 1 });
    expect(first.page_details).toMatchObject({ limit: 1, result_count: 1, next_url: null });
    expect(first.transcripts.map((t) => t.id)).toEqual([submitted.id]);
    expect(first.page_details.prev_url).toEqual(expect.any(String));
    const older = await client.transcripts.list(first.page_details.prev_url!);
    expect(older.transcripts.map((t) => t.id)).toEqual([analysed.id]);
    expect(older.page_details.prev_url).toBeNull();
    expect(older.page_details.next_url).toEqual(expect.any(String));
    const newer = await client.transcripts.list(older.page_details.next_url!);
    expect(newer.transcripts.map((t) => t.id)).toEqual([submitted.id]);
    const byAnchor = await client.transcripts.list({ limit: 5, before_id: submitted.id });
    expect(byAnchor.transcripts.map((t) => t.id)).toEqual([analysed.id]);

    const completed = await client.transcripts.list({ status: 'completed' });
    expect(completed.transcripts).toHaveLength(2);
    expect((await client.transcripts.list({ status: 'error' })).transcripts).toEqual([]);
  });

  it('sentences and paragraphs cover the transcript with its words', async () => {
    const sentences = await client.transcripts.sentences(analysed.id);
    expect(sentences).toMatchObject({
      id: analysed.id,
      confidence: analysed.confidence,
      audio_duration: analysed.audio_duration,
    });
    expect(sentences.sentences.length).toBeGreaterThan(0);
    expect(sentences.sentences.map((s) => s.text).join(' ')).toBe(analysed.text);
    for (const s of sentences.sentences) {
      expect(s.words.map((w) => w.text).join(' ')).toBe(s.text);
      expect(s).toMatchObject({ start: s.words[0]!.start, end: s.words.at(-1)!.end, speaker: null });
      expect(s.confidence).toEqual(expect.any(Number));
    }
    expect(sentences.sentences.flatMap((s) => s.words)).toEqual(analysed.words);

    const paragraphs = await client.transcripts.paragraphs(analysed.id);
    expect(paragraphs).toMatchObject({ id: analysed.id, audio_duration: analysed.audio_duration });
    expect(paragraphs.paragraphs.map((p) => p.text).join(' ')).toBe(analysed.text);
    expect(paragraphs.paragraphs.flatMap((p) => p.words)).toEqual(analysed.words);
    for (const p of paragraphs.paragraphs) {
      expect(p).toMatchObject({ start: p.words[0]!.start, end: p.words.at(-1)!.end });
    }
  });

  it('subtitles: SRT and VTT, with chars_per_caption bounding every caption line', async () => {
    const srt = await client.transcripts.subtitles(analysed.id, 'srt');
    expect(srt).toMatch(/^1\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}\n\S/);
    const vtt = await client.transcripts.subtitles(analysed.id, 'vtt');
    expect(vtt).toMatch(/^WEBVTT\n\n\d\d:\d\d\.\d{3} --> \d\d:\d\d\.\d{3}\n\S/);

    const cues = (body: string, timing: RegExp) =>
      body
        .split(/\n\n+/)
        .map((block) => block.split('\n').filter((line) => line.trim() !== ''))
        .filter((lines) => lines.some((l) => timing.test(l)))
        .map((lines) => lines.slice(lines.findIndex((l) => timing.test(l)) + 1).join(' '));
    const srtTiming = /^\d\d:\d\d:\d\d,\d{3} --> /;
    const vttTiming = /^\d\d:\d\d\.\d{3} --> /;
    expect(cues(srt, srtTiming).join(' ')).toBe(analysed.text);
    expect(cues(vtt, vttTiming).join(' ')).toBe(analysed.text);

    const narrow = await client.transcripts.subtitles(analysed.id, 'srt', 20);
    const narrowCues = cues(narrow, srtTiming);
    expect(narrowCues.length).toBeGreaterThan(cues(srt, srtTiming).length);
    expect(narrowCues.join(' ')).toBe(analysed.text);
    for (const cue of narrowCues) {
      // A caption may exceed the limit only when it is one word too long to split.
      if (cue.includes(' ')) expect(cue.length).toBeLessThanOrEqual(20);
    }
    const narrowVtt = cues(await client.transcripts.subtitles(analysed.id, 'vtt', 20), vttTiming);
    expect(narrowVtt).toEqual(narrowCues);
  });

  it('wordSearch finds words with their indexes and [start, end] timestamps', async () => {
    const found = await client.transcripts.wordSearch(analysed.id, ['house', 'earthquake', 'zebra']);
    expect(found.id).toBe(analysed.id);
    const words = analysed.words!;
    const indexOf = (w: string) => words.findIndex((x) => x.text.toLowerCase().startsWith(w));
    for (const w of ['house', 'earthquake']) {
      const i = indexOf(w);
      expect(found.matches).toContainEqual({
        text: w,
        count: 1,
        indexes: [i],
        timestamps: [[words[i]!.start, words[i]!.end]],
      });
    }
    expect(found.matches.find((m) => m.text === 'zebra')).toBeUndefined();
    expect(found.total_count).toBe(2);
  });

  it('redact_pii with redact_pii_audio: the number is masked and redactedAudio serves a WAV', async () => {
    const redacted = await client.transcripts.transcribe(
      {
        audio: phoneWav,
        speech_models,
        redact_pii: true,
        redact_pii_audio: true,
        redact_pii_policies: ['phone_number'],
      },
      polling,
    );
    expect(redacted.status).toBe('completed');
    expect(redacted).toMatchObject({
      redact_pii: true,
      redact_pii_audio: true,
      redact_pii_policies: ['phone_number'],
    });
    expect(redacted.text).toMatch(/#{7}/);
    expect(redacted.text).not.toMatch(/\d/);
    expect(redacted.text!.toLowerCase()).toContain('call');

    const audio = await client.transcripts.redactedAudio(redacted.id);
    expect(audio.status).toBe('redacted_audio_ready');
    expect(audio.redacted_audio_url).toEqual(expect.stringMatching(/^https?:\/\//));
    expect(await client.transcripts.redactions(redacted.id)).toEqual(audio);
    const file = await client.transcripts.redactedAudioFile(redacted.id);
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(bytes.subarray(8, 12).toString('latin1')).toBe('WAVE');
    // Without redact_pii_audio there is no redacted audio to ask for.
    await expect(client.transcripts.redactedAudio(analysed.id)).rejects.toThrow();
  });

  it('delete scrubs the transcript ("Deleted by user.") and it stays scrubbed', async () => {
    const deleted = await client.transcripts.delete(submitted.id);
    expect(deleted).toMatchObject({
      id: submitted.id,
      status: 'completed',
      text: 'Deleted by user.',
      audio_url: 'http://deleted_by_user',
      words: null,
    });
    expect(await client.transcripts.get(submitted.id)).toEqual(deleted);
    const listed = await client.transcripts.list();
    expect(listed.transcripts.find((t) => t.id === submitted.id)?.audio_url).toBe('http://deleted_by_user');
    await expect(client.transcripts.sentences(submitted.id)).rejects.toThrow();
  });

  it('errors: unknown id and wrong key throw with the service messages', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const lookup = 'Transcript lookup error, transcript id not found';
    await expect(client.transcripts.get(unknown)).rejects.toThrow(lookup);
    await expect(client.transcripts.delete(unknown)).rejects.toThrow(lookup);
    await expect(client.transcripts.sentences(unknown)).rejects.toThrow(lookup);

    const intruder = new AssemblyAI({ apiKey: 'not-a-valid-key', baseUrl: sandbox.url });
    const auth = 'Authentication error, API token missing/invalid';
    await expect(intruder.transcripts.list()).rejects.toThrow(auth);
    await expect(intruder.transcripts.get(analysed.id)).rejects.toThrow(auth);
    await expect(intruder.files.upload(notAudio)).rejects.toThrow(auth);
    await expect(intruder.transcripts.submit({ audio_url: fromPath, speech_models })).rejects.toThrow(auth);
  });

  it('a non-audio upload ends with status "error" and an error message, not a thrown error', async () => {
    const path = join(dirname(complaintWav), 'notes.txt');
    await writeFile(path, notAudio);
    const failed = await client.transcripts.transcribe({ audio: path, speech_models }, polling);
    expect(failed.status).toBe('error');
    expect(failed.error).toMatch(/does not appear to contain audio/i);
    expect(failed.text).toBeNull();
    const listed = await client.transcripts.list({ status: 'error' });
    expect(listed.transcripts.map((t) => [t.id, t.error])).toEqual([[failed.id, failed.error]]);
    await expect(client.transcripts.sentences(failed.id)).rejects.toThrow();
  });
});
