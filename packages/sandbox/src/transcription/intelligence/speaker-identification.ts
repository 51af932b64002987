/**
 * speech_understanding's `speaker_identification`: a mapping from the diarised labels ("A", "B") to names or
 * roles, from what each speaker says (the service infers it from the conversation, with no voice enrolment).
 *
 * - `speaker_type: "name"`: a speaker who introduces themself ("this is Tom Baker", "my name is Ann", "I'm
 *   Tom") gets that name; with `known_values` / `speakers[].name`, the known spelling of a name whose words
 *   match the introduction (so "tom" becomes "Tom Baker" when that is a known value).
 * - `speaker_type: "role"`: the speaker who talks like support ("thank you for calling", "how can I help", "let
 *   me check") gets a support-like role of the list (agent, representative, host...), the one who talks like a
 *   caller ("my order", "I want a refund") a caller-like role (customer, caller, guest...); any speaker still
 *   unmapped takes the remaining values in order of first appearance.
 * Speakers nothing points to are left out of the mapping rather than guessed.
 */
import nlp from 'compromise';
import type { TranscriptSentence } from '../derive/types.js';

export interface SpeakerIdentificationRequest {
  speaker_type: 'name' | 'role';
  known_values?: string[];
  speakers?: { name?: string; role?: string; [key: string]: unknown }[];
}

type Sentence = Pick<TranscriptSentence, 'text' | 'speaker'>;

const INTRODUCTION =
  /\b(?:this is|my name is|my name's|i am|i'm|it's|you're speaking with|you are speaking with)\s+([a-z][a-z'-]*(?:\s+[a-z][a-z'-]*)?)/gi;

const SUPPORT_ROLES =
  /^(?:agent|support|representative|rep|host|interviewer|advisor|adviser|operator|sales|doctor|staff|assistant)/i;
const CALLER_ROLES = /^(?:customer|caller|client|guest|patient|interviewee|user|buyer|member|visitor)/i;
const SUPPORT_CUES =
  /\b(?:thank you for calling|thanks for calling|how (?:can|may) i help|let me (?:check|look|see)|i can see|our records|on our end|i'll send you|we'll send you|i've issued|i have issued)\b/gi;
const CALLER_CUES =
  /\b(?:my order|i ordered|i bought|my (?:account|package|parcel|delivery|refund)|i want|i need|refund|arrived)\b/gi;

function speakersInOrder(sentences: readonly Sentence[]): string[] {
  const seen: string[] = [];
  for (const s of sentences) if (s.speaker && !seen.includes(s.speaker)) seen.push(s.speaker);
  return seen;
}

function titleCase(text: string): string {
  return text.replace(/\b[a-z]/g, (c) => c.toUpperCase());
}

/** The name a speaker introduces themself with, in its known spelling when one matches. */
function introducedName(text: string, known: readonly string[]): string | null {
  for (const match of text.matchAll(INTRODUCTION)) {
    const said = match[1]!.toLowerCase();
    const saidWords = said.split(/\s+/);
    const listed = known.find((k) => {
      const words = k.toLowerCase().split(/\s+/);
      return saidWords.some((w) => words.includes(w));
    });
    if (listed) return listed;
    const person = nlp(said).people().text().trim();
    if (person) return titleCase(person);
  }
  return null;
}

function cueCount(text: string, cues: RegExp): number {
  return text.match(cues)?.length ?? 0;
}

export function identifySpeakers(
  sentences: readonly Sentence[],
  request: SpeakerIdentificationRequest,
): { mapping: Record<string, string>; status: 'success' } {
  const order = speakersInOrder(sentences);
  const said = new Map(
    order.map((speaker) => [
      speaker,
      sentences
        .filter((s) => s.speaker === speaker)
        .map((s) => s.text)
        .join(' '),
    ]),
  );
  const field = request.speaker_type === 'role' ? 'role' : 'name';
  // The request was checked when the transcript was created; a record from elsewhere is read defensively.
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
  const known = [
    ...list(request.known_values),
    ...list(request.speakers).map((s) =>
      typeof s === 'object' && s !== null ? (s as Record<string, unknown>)[field] : null,
    ),
  ].filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  // A Map, not an object: a label is data, and "constructor" or "__proto__" must not read as already mapped.
  const mapping = new Map<string, string>();
  const result = () => ({ mapping: Object.fromEntries(mapping), status: 'success' as const });
  if (request.speaker_type === 'name') {
    for (const speaker of order) {
      const name = introducedName(said.get(speaker)!, known);
      if (name) mapping.set(speaker, name);
    }
    return result();
  }

  const free = [...new Set(known)];
  const assign = (speaker: string | undefined, value: string | undefined) => {
    if (speaker === undefined || value === undefined || mapping.has(speaker)) return;
    mapping.set(speaker, value);
    free.splice(free.indexOf(value), 1);
  };
  const best = (cues: RegExp) =>
    order
      .map((speaker) => ({ speaker, score: cueCount(said.get(speaker)!, cues) }))
      .filter((s) => s.score > 0 && !mapping.has(s.speaker))
      .sort((a, b) => b.score - a.score)[0]?.speaker;
  assign(
    best(SUPPORT_CUES),
    free.find((v) => SUPPORT_ROLES.test(v)),
  );
  assign(
    best(CALLER_CUES),
    free.find((v) => CALLER_ROLES.test(v)),
  );
  if (mapping.size > 0) {
    for (const speaker of order) assign(speaker, free[0]);
  }
  return result();
}
