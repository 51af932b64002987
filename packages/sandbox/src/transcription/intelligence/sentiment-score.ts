/**
 * The emulator's sentence scorer: AFINN-165 (the `sentiment` package's lexicon) with the customer-service
 * extension in sentiment-lexicon.ts, phrases before words, negation within three words of the same clause, intensifiers within
 * two, and "but" shifting the weight to the clause after it. Chosen by measurement over VADER and wink-sentiment
 * (bench/sentiment-accuracy.ts; numbers in the README).
 */
import AfinnSentiment from 'sentiment';
import {
  BUT_AFTER,
  BUT_BEFORE,
  DOMAIN_PHRASES,
  DOMAIN_WORDS,
  INTENSIFIER_FACTOR,
  INTENSIFIERS,
  NEGATION_FACTOR,
  NEGATORS,
} from './sentiment-lexicon.js';

export interface SentimentScore {
  /** Sum of the word and phrase scores after the rules. */
  score: number;
  /** `score` per word of the sentence. */
  comparative: number;
  tokens: number;
}

// The only module-level state: AFINN's analyser, built on first use so importing the sandbox stays cheap.
let afinn: AfinnSentiment | undefined;

/** AFINN's own score of one word (the package's public API; no negation applies to a lone word). */
function afinnWord(word: string): number {
  afinn ??= new AfinnSentiment();
  return afinn.analyze(word).score;
}

const PHRASES = Object.entries(DOMAIN_PHRASES)
  .map(([phrase, score]) => ({ words: phrase.split(' '), score }))
  // Longest first, so "did not arrive" wins over any shorter phrase inside it.
  .sort((a, b) => b.words.length - a.words.length);

/** Lower-case words with apostrophes kept ("didn't"), everything else a separator. */
export function sentimentTokens(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(/[’‘]/g, "'")
      .match(/[a-z0-9]+(?:'[a-z]+)*/g) ?? []
  );
}

/** Punctuation that closes a clause or sentence: a negation before it does not reach past it. */
const CLAUSE_END = /[.,;:!?…—]+/;

/** The tokens, and for each the index of the clause it is in ("not bad. terrible": 0, 0, 1). */
function clauseTokens(text: string): { tokens: string[]; clauses: number[] } {
  const tokens: string[] = [];
  const clauses: number[] = [];
  text.split(CLAUSE_END).forEach((clause, index) => {
    for (const token of sentimentTokens(clause)) {
      tokens.push(token);
      clauses.push(index);
    }
  });
  return { tokens, clauses };
}

function wordScore(word: string): number {
  return Object.hasOwn(DOMAIN_WORDS, word) ? DOMAIN_WORDS[word]! : afinnWord(word);
}

/** The phrase starting at `at`, if one does. */
function phraseAt(tokens: readonly string[], at: number): { length: number; score: number } | null {
  for (const phrase of PHRASES) {
    if (phrase.words.every((w, i) => tokens[at + i] === w)) {
      return { length: phrase.words.length, score: phrase.score };
    }
  }
  return null;
}

export function scoreSentence(text: string): SentimentScore {
  const { tokens, clauses } = clauseTokens(text);
  const butAt = tokens.lastIndexOf('but');
  let score = 0;
  let i = 0;
  while (i < tokens.length) {
    const phrase = phraseAt(tokens, i);
    const length = phrase?.length ?? 1;
    let value = phrase ? phrase.score : wordScore(tokens[i]!);
    if (value !== 0) {
      // Negation reaches three words back within the clause: "not bad. terrible" keeps "terrible" negative.
      let negated = false;
      for (let k = Math.max(0, i - 3); k < i; k++)
        if (clauses[k] === clauses[i] && NEGATORS.has(tokens[k]!)) negated = true;
      if (!phrase && negated) value *= NEGATION_FACTOR;
      if (tokens.slice(Math.max(0, i - 2), i).some((w) => INTENSIFIERS.has(w))) value *= INTENSIFIER_FACTOR;
      if (butAt >= 0) value *= i < butAt ? BUT_BEFORE : i > butAt ? BUT_AFTER : 1;
    }
    score += value;
    i += length;
  }
  return { score, comparative: tokens.length ? score / tokens.length : 0, tokens: tokens.length };
}
