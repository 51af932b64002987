/**
 * The server's messages, field for field as the AsyncAPI spec (usm-streaming.yml, usm-streaming-u3-pro.yml) and
 * the message sequence pages show them. Times are integer ms of session audio; `Begin.expires_at` is Unix
 * seconds; `Termination`'s durations are integer seconds.
 */
import type { ErrorCloseCode } from './closures.js';

export interface WireWord {
  start: number;
  end: number;
  text: string;
  confidence: number;
  word_is_final: boolean;
  /** With `speaker_labels`, on final words. */
  speaker?: string;
}

export interface TurnFields {
  turn_order: number;
  turn_is_formatted: boolean;
  end_of_turn: boolean;
  transcript: string;
  end_of_turn_confidence: number;
  words: WireWord[];
  utterance: string;
  /** With `language_detection`, when an utterance is complete or the turn is final. */
  language_code?: string;
  language_confidence?: number;
  /** With `speaker_labels`. */
  speaker_label?: string;
}

export const beginMessage = (id: string, expiresAtSeconds: number) =>
  JSON.stringify({ type: 'Begin', id, expires_at: expiresAtSeconds });

export const turnMessage = (turn: TurnFields) => {
  const { language_code, language_confidence, speaker_label, ...core } = turn;
  return JSON.stringify({
    ...core,
    ...(language_code === undefined ? {} : { language_code, language_confidence }),
    ...(speaker_label === undefined ? {} : { speaker_label }),
    type: 'Turn',
  });
};

/** Universal-3 Pro only: voice activity detected, before the turn's first Turn message. */
export const speechStartedMessage = (timestampMs: number, confidence: number) =>
  JSON.stringify({ type: 'SpeechStarted', timestamp: timestampMs, confidence: round(confidence) });

export const terminationMessage = (audioSeconds: number, sessionSeconds: number) =>
  JSON.stringify({
    type: 'Termination',
    audio_duration_seconds: Math.round(audioSeconds),
    session_duration_seconds: Math.round(sessionSeconds),
  });

export const errorMessage = (code: ErrorCloseCode, error: string) =>
  JSON.stringify({ type: 'Error', error_code: code, error });

const round = (n: number) => Math.round(n * 1e6) / 1e6;
