import type { Reply } from '../../kit/reply.js';
import { groupParagraphs, searchWords, splitSentences, toSrt, toVtt } from '../derive/index.js';
import type { TranscriptRecord, TranscriptResult } from '../model/transcripts.js';
import { fail, json, LOOKUP_ERROR } from './respond.js';
import type { Call, TranscriptionService } from './service.js';

/**
 * The views of a finished transcript (`/sentences`, `/paragraphs`, `/srt`, `/vtt`, `/word-search`,
 * `/redacted-audio`), all derived from its words. Before the job has finished, or after it failed or was
 * deleted, there is nothing to derive from and the answer is a 400 that says which.
 */
export function transcriptView(service: TranscriptionService, call: Call, id: string, view: string): Reply {
  const record = service.transcripts.find(call.key, id);
  if (!record) return fail(400, LOOKUP_ERROR);
  const result = finished(record);
  if ('status' in result) return result;
  switch (view) {
    case 'sentences':
      return json({
        id: record.id,
        confidence: result.confidence,
        audio_duration: result.audio_duration,
        sentences: splitSentences(result.words),
      });
    case 'paragraphs':
      return json({
        id: record.id,
        confidence: result.confidence,
        audio_duration: result.audio_duration,
        paragraphs: groupParagraphs(result.words),
      });
    case 'srt':
    case 'vtt':
      return subtitles(call, result, view);
    case 'word-search':
      return wordSearch(call, record.id, result);
    case 'redacted-audio':
      return redactedAudio(service, record);
    default:
      return fail(404, 'Not found');
  }
}

function finished(record: TranscriptRecord): TranscriptResult | Reply {
  if (record.deleted) return fail(400, 'Transcript was deleted by user.');
  if (record.status === 'error') return fail(400, `Transcript has status error: ${record.error}`);
  if (record.status !== 'completed' || !record.result) {
    return fail(
      400,
      `Transcript is not completed yet (status: ${record.status}). Try again once it is completed.`,
    );
  }
  return record.result;
}

function subtitles(call: Call, result: TranscriptResult, format: 'srt' | 'vtt'): Reply {
  const raw = call.query.get('chars_per_caption');
  let chars: number | undefined;
  if (raw !== null) {
    chars = Number(raw);
    if (!/^\d+$/.test(raw) || chars < 1) {
      return fail(
        400,
        `Invalid query parameter: chars_per_caption must be a positive integer, got ${JSON.stringify(raw)}.`,
      );
    }
  }
  const options = chars === undefined ? {} : { chars_per_caption: chars };
  const body = format === 'srt' ? toSrt(result.words, options) : toVtt(result.words, options);
  return { status: 200, body, headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
}

/** Phrases longer than this are refused, as the service refuses them. */
const MAX_PHRASE_WORDS = 5;

function wordSearch(call: Call, id: string, result: TranscriptResult): Reply {
  const raw = call.query.get('words');
  if (raw === null || raw.trim() === '') {
    return fail(
      400,
      'Invalid query parameter: words is required (a comma-separated list of words or phrases).',
    );
  }
  const queries = raw
    .split(',')
    .map((w) => w.trim())
    .filter((w) => w.length > 0);
  const long = queries.find((q) => q.split(/\s+/).length > MAX_PHRASE_WORDS);
  if (long)
    return fail(
      400,
      `Invalid query parameter: phrases can have at most ${MAX_PHRASE_WORDS} words: "${long}".`,
    );
  return json({ id, ...searchWords(result.words, queries) });
}

function redactedAudio(service: TranscriptionService, record: TranscriptRecord): Reply {
  if (record.params.redact_pii_audio !== true) {
    return fail(
      400,
      'Redacted audio is not available: the transcript was not requested with redact_pii_audio: true.',
    );
  }
  const path = record.result?.redacted_audio_path;
  if (!path) return fail(400, 'Redacted audio is not ready yet.');
  return json({
    status: 'redacted_audio_ready',
    redacted_audio_url: `${service.baseUrl()}/v2/redacted-audio/${record.id}`,
  });
}
