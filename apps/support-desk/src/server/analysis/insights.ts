import type { CallEntity } from '../../shared/api.js';

/** `speech_understanding` on a transcript: the parts of each task's answer the desk reads. */
export interface UnderstandingInput {
  response?:
    | {
        speaker_identification?: { mapping?: Record<string, string> | undefined } | undefined;
        summarization?:
          | { summary?: readonly { text: string; headline?: string | undefined }[] | undefined }
          | undefined;
        action_items?: { items?: readonly { action_item: string }[] | undefined } | undefined;
      }
    | undefined;
}

/** What the service understood of a call, beyond its words and their sentiment. */
export interface InsightsInput {
  entities?: readonly { entity_type: string; text: string }[] | null | undefined;
  speech_understanding?: UnderstandingInput | null | undefined;
}

/** At most this many entities in a note: a long call names many dates and amounts. */
export const MAX_ENTITIES = 20;

/**
 * The service's summary (its sections' headlines and texts, in the order of the call), its action items and
 * the entities it found, each type and text once. Nothing is made up here: absent answers stay absent.
 */
export function insights(transcript: InsightsInput): {
  serviceSummary: string | null;
  actionItems: string[];
  entities: CallEntity[];
} {
  const response = transcript.speech_understanding?.response;
  const sections = response?.summarization?.summary ?? [];
  const serviceSummary =
    sections
      .map((s) => (s.headline ? `${s.headline.trim()}: ${s.text.trim()}` : s.text.trim()))
      .filter(Boolean)
      .join(' ') || null;
  const actionItems = (response?.action_items?.items ?? []).map((i) => i.action_item.trim()).filter(Boolean);
  const entities: CallEntity[] = [];
  for (const e of transcript.entities ?? []) {
    const text = e.text.trim();
    if (
      !text ||
      entities.some((x) => x.entity_type === e.entity_type && x.text.toLowerCase() === text.toLowerCase())
    )
      continue;
    entities.push({ entity_type: e.entity_type, text });
    if (entities.length === MAX_ENTITIES) break;
  }
  return { serviceSummary, actionItems, entities };
}
