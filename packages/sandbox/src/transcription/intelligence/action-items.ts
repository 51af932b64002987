/**
 * speech_understanding's `action_items`: sentences in which someone commits to doing something ("I will
 * send you a label", "we'll refund the order") or asks for it ("please check the address", "can you call me
 * back"), each with the action as an imperative, the sentence quoted, and when it was said. The service asks a
 * language model; the emulator reads the wording, so an item is always a sentence that was really said.
 */

import { type CharClass, trailingStart, WORD_END_PUNCTUATION } from '../derive/edges.js';
import type { TranscriptSentence } from '../derive/types.js';

export interface ActionItem {
  action_item: string;
  quote: string;
  /** Start of the quoted sentence, ms. */
  timestamp: number;
}

/** What the action is, captured from the words after the commitment or request. */
const PATTERNS: readonly RegExp[] = [
  /\b(?:i|we)\s*(?:'ll|will|shall|am going to|are going to|'m going to|'re going to)\s+(.+)/i,
  /\b(?:i|we) (?:need|have) to\s+(.+)/i,
  /\b(?:you|we) (?:need|have|ought) to\s+(.+)/i,
  /\b(?:can|could|would|will) you(?: please)?\s+(?!like\b)(.+)/i,
  /\bplease\s+(.+)/i,
  /\blet me\s+(.+)/i,
  /\bmake sure\s+(.+)/i,
  /\b(?:i|we) need you to\s+(.+)/i,
];

/** Verbs that do not make an action on their own ("I will be at home" is a fact, not a task). */
const NOT_ACTIONS = /^(?:be|have|like|love|see|know|think|hope|wait)\b/i;

/** What a captured action ends with and loses: punctuation and white space. */
const ACTION_END: CharClass = { has: (char) => WORD_END_PUNCTUATION.has(char) || /\s/.test(char) };

function imperative(rest: string): string | null {
  const action = rest
    .slice(0, trailingStart(rest, ACTION_END))
    .replace(/^(?:please|just|also|definitely)\s+/i, '')
    .trim();
  if (action.split(/\s+/).length < 2 || NOT_ACTIONS.test(action)) return null;
  return `${action.charAt(0).toUpperCase()}${action.slice(1)}.`;
}

export function findActionItems(
  sentences: readonly Pick<TranscriptSentence, 'text' | 'start'>[],
): ActionItem[] {
  const items: ActionItem[] = [];
  for (const sentence of sentences) {
    for (const pattern of PATTERNS) {
      const rest = pattern.exec(sentence.text)?.[1];
      const action = rest === undefined ? null : imperative(rest);
      if (!action) continue;
      items.push({ action_item: action, quote: sentence.text, timestamp: sentence.start });
      break;
    }
  }
  return items;
}
