import * as z from 'zod/mini';

/*
 * What the streaming service sends (text frames of JSON). Loose objects: a field the service adds later
 * reaches the user instead of failing the message. Numbers carry no integer checks, for the same reason.
 * Sources: usm-streaming.yml, the "message sequence" docs page, and the SDK's types for the messages
 * only it knows (Warning, Heartbeat, Silence, SpeakerRevision, LLMGatewayResponse).
 */

const wordShape = z.looseObject({
  text: z.string(),
  /** Milliseconds from the start of the stream (continued across reconnects by the transcriber). */
  start: z.number(),
  end: z.number(),
  /** 0–1. */
  confidence: z.number(),
  /** Final words form a prefix of `words` and are not revised; all are final when the turn ends. */
  word_is_final: z.boolean(),
  /** With `speaker_labels`, on final words. */
  speaker: z.optional(z.nullable(z.string())),
});
/** One word of a turn. */
export interface StreamingWord extends z.infer<typeof wordShape> {}
export const streamingWord: z.ZodMiniType<StreamingWord> = wordShape;

const beginShape = z.looseObject({
  type: z.literal('Begin'),
  /** The session id (a UUID): quote it to AssemblyAI support. */
  id: z.string(),
  /** Unix seconds at which the service ends the session (3008). usm-streaming.yml once said ISO 8601; the docs and the U3 spec say seconds. */
  expires_at: z.number(),
});
/** The session is open; audio may flow. */
export interface BeginEvent extends z.infer<typeof beginShape> {}

const turnShape = z.looseObject({
  type: z.literal('Turn'),
  /** 0 for the first turn, +1 after each final turn (continued across reconnects by the transcriber). */
  turn_order: z.number(),
  /** True for the formatted copy of a final turn (`format_turns`). */
  turn_is_formatted: z.boolean(),
  /** True once the turn is final. */
  end_of_turn: z.boolean(),
  /** The final words so far. */
  transcript: z.string(),
  /** Set when an utterance within the turn is complete. */
  utterance: z.optional(z.nullable(z.string())),
  /** 0–1. */
  end_of_turn_confidence: z.number(),
  words: z.array(wordShape),
  language_code: z.optional(z.nullable(z.string())),
  language_confidence: z.optional(z.nullable(z.number())),
  speaker_label: z.optional(z.nullable(z.string())),
});
/** A partial (`end_of_turn: false`) or final turn. */
export interface TurnEvent extends z.infer<typeof turnShape> {}

const speechStartedShape = z.looseObject({
  type: z.literal('SpeechStarted'),
  /** Milliseconds from the start of the stream. */
  timestamp: z.number(),
  confidence: z.optional(z.number()),
});
/** Voice detected (u3-rt-pro): comes before the first partial of a turn. */
export interface SpeechStartedEvent extends z.infer<typeof speechStartedShape> {}

const terminationShape = z.looseObject({
  type: z.literal('Termination'),
  audio_duration_seconds: z.number(),
  session_duration_seconds: z.number(),
});
/** The answer to `Terminate`: the session is over; the service closes with 1000 next. */
export interface TerminationEvent extends z.infer<typeof terminationShape> {}

const errorShape = z.looseObject({
  type: z.optional(z.literal('Error')),
  /** The close code that follows (1008, 3005–3009). */
  error_code: z.optional(z.number()),
  error: z.string(),
});
/** Sent just before an error close: the service's reason, in words. */
export interface ErrorMessage extends z.infer<typeof errorShape> {}

const warningShape = z.looseObject({
  type: z.literal('Warning'),
  warning_code: z.number(),
  warning: z.string(),
});
/** A non-fatal notice (SDK). */
export interface WarningEvent extends z.infer<typeof warningShape> {}

/** The messages this client acts on; any other `type` is passed on as a `message` event. */
export const streamingServerMessage = z.discriminatedUnion('type', [
  beginShape,
  turnShape,
  speechStartedShape,
  terminationShape,
  warningShape,
]);
export type StreamingServerMessage = z.infer<typeof streamingServerMessage>;

export type DecodedMessage =
  | { kind: 'known'; message: StreamingServerMessage }
  | { kind: 'error'; message: ErrorMessage }
  | { kind: 'other'; message: { type: string } & Record<string, unknown> }
  | { kind: 'invalid'; reason: string };

const KNOWN = new Set(['Begin', 'Turn', 'SpeechStarted', 'Termination', 'Warning']);

/**
 * Reads one text frame. Never throws: a frame that is not JSON, or a known message missing a field this
 * client needs, comes back as `invalid` with a reason that quotes no more than 100 characters of it.
 */
export function decodeMessage(text: string): DecodedMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'invalid', reason: `not JSON: ${JSON.stringify(text.slice(0, 100))}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'invalid', reason: 'not a JSON object' };
  }
  const type = (value as { type?: unknown }).type;
  // The docs' error frame has `type: "Error"`; the SDK also handles `{"error": …}` without a type.
  if (type === 'Error' || (type === undefined && 'error' in value)) {
    const parsed = errorShape.safeParse(value);
    return parsed.success
      ? { kind: 'error', message: parsed.data }
      : { kind: 'invalid', reason: 'an Error message without a string "error"' };
  }
  if (typeof type !== 'string') return { kind: 'invalid', reason: 'no "type"' };
  if (!KNOWN.has(type)) {
    return { kind: 'other', message: value as { type: string } & Record<string, unknown> };
  }
  const parsed = streamingServerMessage.safeParse(value);
  if (parsed.success) return { kind: 'known', message: parsed.data };
  const fields = parsed.error.issues.map((issue) => issue.path.join('.') || '(root)');
  return { kind: 'invalid', reason: `a ${type} message with bad fields: ${fields.slice(0, 5).join(', ')}` };
}
