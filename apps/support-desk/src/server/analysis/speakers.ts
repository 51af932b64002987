/**
 * Telling the agent from the customer in a diarized call. The service labels voices `A`, `B`… in the order
 * they speak, not by who they are, so the desk decides which label is the customer:
 *
 * 1. The service said so: its speaker identification (`speech_understanding` with `speaker_type: "role"`
 *    and `known_values: ["Agent", "Customer"]`). AssemblyAI's docs say it replaces the generic labels in
 *    the transcript with the roles; SDK 4.41.5 types only a `mapping` of label → role in the task's
 *    response. The docs win, so relabelled utterances are read first, and a `mapping` is read too.
 * 2. Otherwise from what each voice says: a caller gives the order number, their name and asks ("my order",
 *    "I want a refund"); support says "thank you for calling", "how can I help", "I will send you…". Each
 *    agent phrase counts against a label twice what a caller phrase counts for it, since an agent repeats
 *    the order number but a caller never thanks someone for calling. The highest score is the customer; a
 *    tie goes to the second voice (support answers the phone, the caller speaks next).
 * 3. One voice only: it is the customer, whatever role a service guessed (a caller's own recording, or a
 *    diarizer that heard no change of voice).
 * 4. No labels: every sentence counts as the customer's.
 */
import type { CustomerSpeaker, SpeakerRole, UtteranceView } from '../../shared/api.js';
import type { UnderstandingInput } from './insights.js';
import { findCustomerNames, findOrderNumbers } from './match.js';

export interface UtteranceInput {
  speaker: string;
  text: string;
  start: number;
  end: number;
}

export interface SpeakerInput {
  utterances?: readonly UtteranceInput[] | null | undefined;
  speech_understanding?: UnderstandingInput | null | undefined;
}

const CALLER_ROLE = /^(?:customer|caller|client|buyer|guest)\b/i;

const AGENT_CUES =
  /\b(?:thank you for calling|thanks for calling|how (?:can|may) i help|let me (?:check|look|see)|i (?:will|'ll) send you|i can see|i have issued|i've issued|support desk)\b/gi;
const CALLER_CUES =
  /\b(?:my order|i ordered|i bought|my (?:account|package|parcel|delivery)|i want|i need|i'd like|arrived)\b/gi;

function count(text: string, pattern: RegExp): number {
  return [...text.matchAll(pattern)].length;
}

/** How much a voice sounds like the caller; see the file's comment. */
export function callerScore(text: string): number {
  const says = (found: unknown[]) => (found.length > 0 ? 1 : 0);
  return (
    says(findOrderNumbers(text)) +
    says(findCustomerNames(text)) +
    count(text, CALLER_CUES) -
    2 * count(text, AGENT_CUES)
  );
}

function labelsInOrder(utterances: readonly UtteranceInput[]): string[] {
  const labels: string[] = [];
  for (const u of utterances) if (!labels.includes(u.speaker)) labels.push(u.speaker);
  return labels;
}

/** The role of each label, and which label is the customer. */
export interface SpeakerRoles {
  customer: CustomerSpeaker;
  roles: Map<string, SpeakerRole>;
}

export function identifySpeakers(transcript: SpeakerInput): SpeakerRoles {
  const utterances = transcript.utterances ?? [];
  const labels = labelsInOrder(utterances);
  const roles = new Map<string, SpeakerRole>();
  if (labels.length === 0) return { customer: { label: null, by: 'none' }, roles };

  const mapping = transcript.speech_understanding?.response?.speaker_identification?.mapping ?? {};
  // Own keys only: a label such as `constructor` is a voice, not Object's property.
  const named = (label: string) => (Object.hasOwn(mapping, label) ? String(mapping[label]) : label);
  if (labels.length > 1 && labels.some((l) => CALLER_ROLE.test(named(l)))) {
    for (const l of labels) roles.set(l, CALLER_ROLE.test(named(l)) ? 'Customer' : 'Agent');
    const label = labels.find((l) => CALLER_ROLE.test(named(l)))!;
    return { customer: { label, by: 'service' }, roles };
  }
  if (labels.length === 1) {
    // One voice for the whole call (a caller's own recording, or a diarizer that heard no change): it holds
    // the customer's words whatever role a service guessed for it, so it counts as theirs.
    roles.set(labels[0]!, 'Customer');
    return { customer: { label: labels[0]!, by: 'single' }, roles };
  }

  const scores = labels.map((label) => {
    const said = utterances
      .filter((u) => u.speaker === label)
      .map((u) => u.text)
      .join(' ');
    return { label, score: callerScore(said), agentLike: count(said, AGENT_CUES) > 0 };
  });
  const best = Math.max(...scores.map((s) => s.score));
  const top = scores.filter((s) => s.score === best);
  const customer = top.length === 1 ? top[0]!.label : (top[1] ?? top[0]!).label;
  for (const { label, score, agentLike } of scores) {
    // A diarizer that splits one voice in two leaves a second caller-like label: the customer's too.
    roles.set(label, label === customer || (score > 0 && !agentLike) ? 'Customer' : 'Agent');
  }
  return { customer: { label: customer, by: 'cues' }, roles };
}

/** The utterances with their roles, for the page. */
export function utteranceViews(transcript: SpeakerInput, roles: Map<string, SpeakerRole>): UtteranceView[] {
  return (transcript.utterances ?? []).map((u) => ({
    speaker: roles.get(u.speaker) ?? 'Agent',
    label: u.speaker,
    text: u.text,
    start: u.start,
    end: u.end,
  }));
}

/**
 * The role of a span of the call: its own label when the service gave one (sentences carry `speaker` with
 * `speaker_labels`), else the utterance its middle falls in.
 */
export function roleAt(
  span: { start: number; end: number; speaker?: string | null | undefined },
  transcript: SpeakerInput,
  roles: Map<string, SpeakerRole>,
): SpeakerRole | null {
  if (roles.size === 0) return null;
  if (span.speaker && roles.has(span.speaker)) return roles.get(span.speaker)!;
  const middle = (span.start + span.end) / 2;
  const around = (transcript.utterances ?? []).find((u) => u.start <= middle && middle <= u.end);
  return around ? (roles.get(around.speaker) ?? null) : null;
}
