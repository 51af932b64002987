/**
 * `speech_understanding` as the service returns it: the request echoed and a `response` with one entry per
 * task asked (docs: speech-understanding pages; openapi.yml `TranslationResponse`, `SpeakerIdentificationResponse`,
 * `CustomFormattingResponse`; summarization and action items as their docs' example outputs show). The docs
 * run several tasks from one request object, so every task present is answered. The official SDK (4.41.5)
 * types only translation, speaker_identification and custom_formatting; the docs also document summarization
 * and action_items in the same request object, and the docs win.
 *
 * Translation is honest: the emulator translates nothing, so English targets get the text itself and other
 * targets are refused when the transcript is created (model/params.ts), never answered with made-up text.
 */
import type { TranscriptSentence, TranscriptWord } from '../derive/types.js';
import { findActionItems } from './action-items.js';
import { type CustomFormattingRequest, customFormat } from './custom-formatting.js';
import { identifySpeakers, type SpeakerIdentificationRequest } from './speaker-identification.js';
import { type SummaryType, summariseSections } from './summarise.js';

/** Target languages the emulator can answer: English is the transcript's own text. */
export const TRANSLATABLE = /^en(?:_[a-z]{2})?$/i;

type Task = Record<string, unknown>;

export interface Understanding {
  speech_understanding: { request: Record<string, unknown>; response: Record<string, unknown> };
  /** Top-level `translated_texts` of a translation task, keyed by target language. */
  translated_texts?: Record<string, string>;
}

const asTask = (value: unknown): Task | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Task) : null;

const effortOf = (task: Task) => (typeof task.effort === 'string' ? task.effort : 'low');

export function understand(
  value: unknown,
  words: readonly TranscriptWord[],
  sentences: readonly TranscriptSentence[],
): Understanding | undefined {
  const request = asTask(asTask(value)?.request);
  if (!request) return undefined;
  const response: Record<string, unknown> = {};
  const out: Understanding = { speech_understanding: { request, response } };
  const text = words.map((w) => w.text).join(' ');

  const translation = asTask(request.translation);
  if (translation) {
    const targets = Array.isArray(translation.target_languages) ? translation.target_languages : [];
    out.translated_texts = Object.fromEntries(
      targets.filter((t): t is string => typeof t === 'string' && TRANSLATABLE.test(t)).map((t) => [t, text]),
    );
    response.translation = { status: 'success' };
  }
  const speakers = asTask(request.speaker_identification);
  if (speakers) {
    response.speaker_identification = identifySpeakers(
      sentences,
      speakers as unknown as SpeakerIdentificationRequest,
    );
  }
  const formatting = asTask(request.custom_formatting);
  if (formatting) {
    const pattern = (key: string) =>
      typeof formatting[key] === 'string' ? (formatting[key] as string) : undefined;
    const patterns: CustomFormattingRequest = {
      date: pattern('date'),
      phone_number: pattern('phone_number'),
      email: pattern('email'),
    };
    // The SDK's CustomFormattingResponse has a required status; openapi.yml's lists mapping and formatted_text.
    response.custom_formatting = { ...customFormat(words, patterns), status: 'success' };
  }
  const summarization = asTask(request.summarization);
  if (summarization) {
    const type = (
      typeof summarization.summary_type === 'string' ? summarization.summary_type : 'paragraph'
    ) as SummaryType;
    response.summarization = { status: 'success', summary: summariseSections(sentences, type) };
  }
  const actionItems = asTask(request.action_items);
  if (actionItems) {
    response.action_items = { effort: effortOf(actionItems), items: findActionItems(sentences) };
  }
  return out;
}
