import { access, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { buildUtterances, splitSentences } from '../derive/index.js';
import { readWavFormat, wavDuration } from '../engine/audio.js';
import { type AudioHeader, type Engine, EngineError, INSTALL_HINT } from '../engine/index.js';
import { analyseTranscript, LanguageConfidenceError } from '../intelligence/index.js';
import { labelWords, type Track } from '../speakers/label.js';
import { speakerOptionsProblem } from '../speakers/options.js';
import { identifiedSpeakers, renameSpeakerFields, renameSpeakers } from '../speakers/rename.js';
import { audioRefusal, MIN_BYTES_PER_SECOND } from './audio-limits.js';
import { DownloadError, downloadAudio, type LocalAudio } from './audio-source.js';
import { describeFileType } from './file-type.js';
import { writeRedactedAudio } from './redacted-audio.js';
import { redactedSpans, redactWords } from './redaction.js';
import { serviceTimestamp, type TranscriptRecord, type TranscriptResult } from './transcripts.js';
import type { Uploads } from './uploads.js';
import type { WebhookSender } from './webhooks.js';
import { applyCustomSpelling, filterProfanity } from './word-rules.js';

export interface JobContext {
  engine: Engine;
  uploads: Uploads;
  webhooks: WebhookSender;
  maxDownloadBytes: number;
  downloadTimeoutMs: number;
  /** Longer audio ends in `error` (the service takes up to 10 hours). */
  maxAudioSeconds: number;
  /** The emulator's public base URL, for the redacted audio's URL in the second webhook. */
  baseUrl(): string;
  /** Journals the record (a data directory); a no-op without one. */
  save(record: TranscriptRecord): void;
}

/** The service's shortest transcribable audio. */
const MIN_AUDIO_MS = 160;

/**
 * The most channels a multichannel job recognises: each is a full recognition, so a header declaring 200
 * channels would be 200 times the work its duration allows. Stereo calls and 4–8 track meetings fit.
 */
const MAX_CHANNELS = 8;

/**
 * One job from `processing` to `completed` or `error`, as the service runs it: fetch the audio, recognise
 * it, derive what the request asked for, then tell the webhook. A failure is the transcript's `error` text
 * (HTTP 200 on the API), never an exception out of here.
 */
export async function runTranscriptJob(
  ctx: JobContext,
  record: TranscriptRecord,
  signal: AbortSignal,
): Promise<void> {
  if (record.deleted) return;
  record.status = 'processing';
  record.speech_model_used = record.params.speech_models[0] ?? null;
  let audio: LocalAudio | null = null;
  try {
    // Checked at creation (params.ts) too; asked again for records stored before that check (a --data file).
    const speakerProblem = speakerOptionsProblem(record.params);
    if (speakerProblem) throw new JobError(speakerProblem);
    audio = await localAudio(ctx, record, signal);
    // The header says how long the audio is: 2 KB declaring 1 Hz is 2,000 s of work for the converter and
    // the recogniser, so the limits are applied before either runs, not only to what they report.
    const fileBytes = (await stat(audio.path)).size;
    const header = await declaredAudio(ctx.engine, audio.path, signal);
    const refusal = audioRefusal(header, fileBytes, ctx.maxAudioSeconds);
    if (refusal) throw new JobError(refusal);
    const params = record.params;
    const channels = params.multichannel === true ? (header?.channels ?? 1) : null;
    if (channels !== null && channels > MAX_CHANNELS) {
      throw new JobError(
        `The audio has ${channels} channels; the sandbox transcribes at most ${MAX_CHANNELS}.`,
      );
    }
    const tracks: Track[] = [];
    let duration = 0;
    // Channel by channel: each is a recognition of the whole duration, so the work grows with the channels.
    for (const channel of channels === null ? [null] : Array.from({ length: channels }, (_, i) => i + 1)) {
      const recognised = await ctx.engine.transcribe(audio.path, {
        signal,
        // The same bounds for audio whose header declares no duration, applied while it is converted.
        maxSeconds: Math.min(ctx.maxAudioSeconds, fileBytes / MIN_BYTES_PER_SECOND),
        punctuate: params.punctuate !== false,
        format_text: params.format_text !== false,
        voices: params.speaker_labels === true,
        ...(channel === null ? {} : { channel }),
      });
      tracks.push({
        channel,
        words: recognised.words,
        ...(recognised.voices && { voices: recognised.voices }),
      });
      duration = Math.max(duration, recognised.audio_duration);
    }
    if (duration * 1000 < MIN_AUDIO_MS) throw new JobError('Audio duration is too short.');
    if (duration > ctx.maxAudioSeconds) throw tooLong(duration, ctx.maxAudioSeconds);
    if (record.deleted) return;
    const result = complete(params, tracks, duration, channels);
    if (params.redact_pii === true && params.redact_pii_audio === true) {
      const output = await ctx.uploads.scratchPath('.wav');
      await writeRedactedAudio(audio.path, output, redactedSpans(result.words), signal);
      result.redacted_audio_path = output;
    }
    if (record.deleted) return;
    record.result = result;
    record.status = 'completed';
  } catch (error) {
    if (record.deleted || signal.aborted) return;
    record.status = 'error';
    // An upload removed while its job ran (another transcript of it deleted) fails the tools in their own
    // words, with server paths; what the client needs to know is that the file is gone.
    if (record.upload_id && !(await uploadPresent(ctx, record.upload_id))) record.error = UPLOAD_GONE;
    else if (error instanceof EngineError && error.code === 'bad_audio' && audio)
      record.error = `File does not appear to contain audio. File type is ${await describeFileType(audio.path)}.`;
    else if (
      error instanceof JobError ||
      error instanceof DownloadError ||
      error instanceof LanguageConfidenceError
    )
      record.error = error.message;
    else record.error = withoutPaths(jobErrorMessage(error), audio?.path);
  } finally {
    await audio?.dispose();
  }
  record.completed = serviceTimestamp();
  ctx.save(record);
  notify(ctx, record);
}

class JobError extends Error {}

const UPLOAD_GONE = 'Cannot access uploaded file: it was deleted.';

const tooLong = (seconds: number, max: number) =>
  new JobError(`Audio duration of ${Math.round(seconds)} seconds exceeds the maximum of ${max} seconds.`);

/** What the audio's header declares: the engine's reading, or the WAV header for an engine that has none. */
async function declaredAudio(
  engine: Engine,
  path: string,
  signal: AbortSignal,
): Promise<AudioHeader | undefined> {
  if (engine.probe) return engine.probe(path, { signal });
  const wav = await readWavFormat(path).catch(() => undefined);
  return wav && { sampleRate: wav.sampleRate, channels: wav.channels, seconds: wavDuration(wav) };
}

/** The upload is still known and its file still on disk. */
async function uploadPresent(ctx: JobContext, id: string): Promise<boolean> {
  const upload = ctx.uploads.get(id);
  if (!upload) return false;
  return access(upload.path).then(
    () => true,
    () => false,
  );
}

/**
 * A tool's complaint names files on the server (the upload, its conversion under the temp directory): those
 * are the sandbox's business, not the client's, so they are replaced before the message reaches a transcript.
 */
function withoutPaths(message: string, audioPath: string | undefined): string {
  const roots = [audioPath && dirname(audioPath), tmpdir()].filter((r): r is string => Boolean(r));
  let out = message;
  for (const root of roots) {
    // Only where a path starts (after a space, a quote, a bracket or `=`), so a URL is never cut into.
    out = out.replace(new RegExp(`(?<![^\\s'"(=])${escapeRegExp(root)}[^\\s'"()]*`, 'g'), '<file>');
  }
  return out;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function localAudio(
  ctx: JobContext,
  record: TranscriptRecord,
  signal: AbortSignal,
): Promise<LocalAudio> {
  if (record.upload_id) {
    const upload = ctx.uploads.get(record.upload_id);
    if (!upload || !(await uploadPresent(ctx, record.upload_id))) throw new JobError(UPLOAD_GONE);
    return { path: upload.path, dispose: async () => {} };
  }
  return downloadAudio(record.params.audio_url, ctx.uploads, {
    maxBytes: ctx.maxDownloadBytes,
    timeoutMs: ctx.downloadTimeoutMs,
    signal,
  });
}

function jobErrorMessage(error: unknown): string {
  if (error instanceof JobError || error instanceof DownloadError || error instanceof LanguageConfidenceError)
    return error.message;
  if (error instanceof EngineError) {
    if (error.code === 'bad_audio') return `File does not appear to contain audio. ${error.message}`;
    if (error.code === 'unavailable') return `${error.message}`;
    return `Transcoding failed. ${error.message}`;
  }
  return `Server error, developers have been alerted. (${(error as Error)?.message ?? String(error)}; to fix a missing engine: ${INSTALL_HINT})`;
}

type Params = TranscriptRecord['params'];

function complete(
  params: Params,
  tracks: readonly Track[],
  durationSeconds: number,
  channels: number | null,
): TranscriptResult {
  const from = typeof params.audio_start_from === 'number' ? params.audio_start_from : 0;
  const to = typeof params.audio_end_at === 'number' ? params.audio_end_at : Number.POSITIVE_INFINITY;
  let words = labelWords(params, tracks, (w) => w.start >= from && w.end <= to);
  if (Array.isArray(params.custom_spelling)) {
    words = applyCustomSpelling(words, params.custom_spelling as { from: string[]; to: string }[]);
  }
  if (params.filter_profanity === true) words = filterProfanity(words);
  if (params.redact_pii === true) words = redactWords(words, params);
  const sentences = splitSentences(words);
  const text = words.map((w) => w.text).join(' ');
  const confidence = words.length ? round(words.reduce((s, w) => s + w.confidence, 0) / words.length) : null;
  const turns = params.speaker_labels === true || channels !== null;
  const intelligence = analyseTranscript({ params, words, sentences });
  const names = identifiedSpeakers(intelligence.speech_understanding);
  const named = renameSpeakers(words, names);
  return {
    text,
    words: named,
    confidence,
    audio_duration: Math.round(durationSeconds),
    utterances: turns && named.length ? buildUtterances(named) : null,
    ...(channels !== null && { audio_channels: channels }),
    ...intelligence,
    sentiment_analysis_results: renameSpeakerFields(
      intelligence.sentiment_analysis_results as { speaker?: string | null }[] | null,
      names,
    ),
  };
}

const round = (n: number) => Math.round(n * 1000) / 1000;

function notify(ctx: JobContext, record: TranscriptRecord): void {
  const url = record.params.webhook_url;
  if (typeof url !== 'string' || record.deleted) return;
  const name = record.params.webhook_auth_header_name;
  const value = record.params.webhook_auth_header_value;
  ctx.webhooks.send({
    url,
    body: { transcript_id: record.id, status: record.status },
    authHeader: typeof name === 'string' && typeof value === 'string' ? { name, value } : null,
    onStatus: (status) => {
      if (status === null) return;
      record.webhook_status_code = status;
      ctx.save(record);
    },
  });
  // The service's second notification, once the redacted audio can be fetched.
  if (record.result?.redacted_audio_path) {
    ctx.webhooks.send({
      url,
      body: {
        status: 'redacted_audio_ready',
        redacted_audio_url: `${ctx.baseUrl()}/v2/redacted-audio/${record.id}`,
      },
      authHeader: typeof name === 'string' && typeof value === 'string' ? { name, value } : null,
      onStatus: () => {},
    });
  }
}
