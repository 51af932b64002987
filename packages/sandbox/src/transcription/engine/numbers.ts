/**
 * Spoken English numbers to digits, as the service's `format_text` writes them: "four five six" -> "456",
 * "twenty three" -> "23", "two thousand and five" -> "2005". Pure and dependency-free; recognisers give
 * lower-case words, one per token.
 *
 * A run of number words is read as consecutive cardinals, each as long as English grammar lets it grow
 * ("twenty" + "three" grows, "four" + "five" does not), and the cardinals are written one after the other.
 * That one rule covers digit-by-digit order numbers ("four five six"), years ("nineteen ninety nine" -> "1999")
 * and ordinary amounts ("one hundred and twenty" -> "120").
 */

const UNITS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
};
const TEENS: Record<string, number> = {
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const SCALES: Record<string, number> = { thousand: 1_000, million: 1_000_000, billion: 1_000_000_000 };

type Last = 'start' | 'unit' | 'teen' | 'tens' | 'hundred' | 'scale';

const has = (table: Record<string, number>, word: string | undefined): word is string =>
  word !== undefined && Object.hasOwn(table, word);

/** Whether a word can begin a number ("hundred" and "thousand" cannot: "a hundred" stays words). */
export function startsNumber(word: string | undefined): boolean {
  return word === 'zero' || has(UNITS, word) || has(TEENS, word) || has(TENS, word);
}

/** One cardinal from `tokens[from]`: its value and the index after it, or undefined when none starts there. */
export function readCardinal(
  tokens: readonly string[],
  from: number,
): { value: number; next: number } | undefined {
  if (!startsNumber(tokens[from])) return undefined;
  if (tokens[from] === 'zero') return { value: 0, next: from + 1 }; // zero never combines
  let total = 0;
  let current = 0;
  let last: Last = 'start';
  let hundredUsed = false;
  let lastScale = Number.POSITIVE_INFINITY;
  let at = from;
  for (; at < tokens.length; at++) {
    const word = tokens[at] as string;
    if (has(UNITS, word) && (last === 'start' || last === 'tens' || last === 'hundred' || last === 'scale')) {
      current += UNITS[word] as number;
      last = 'unit';
    } else if (
      (has(TEENS, word) || has(TENS, word)) &&
      (last === 'start' || last === 'hundred' || last === 'scale')
    ) {
      current += (TEENS[word] ?? TENS[word]) as number;
      last = has(TEENS, word) ? 'teen' : 'tens';
    } else if (word === 'hundred' && !hundredUsed && current > 0 && current < 100 && last !== 'scale') {
      current *= 100; // "nineteen hundred" as well as "one hundred"
      hundredUsed = true;
      last = 'hundred';
    } else if (has(SCALES, word) && current > 0 && (SCALES[word] as number) < lastScale) {
      lastScale = SCALES[word] as number;
      total += current * lastScale;
      current = 0;
      hundredUsed = false;
      last = 'scale';
    } else if (word === 'and' && (last === 'hundred' || last === 'scale') && startsNumber(tokens[at + 1])) {
      // "one hundred and five": the "and" belongs to the number
    } else {
      break;
    }
  }
  return { value: total + current, next: at };
}

export interface NumberRun {
  /** Index of the first token of the run. */
  start: number;
  /** Index after its last token. */
  end: number;
  digits: string;
}

/**
 * Every run of spoken number words in `tokens`, as digits. A lone small number ("one of them", "thank you for
 * two things") stays words, as the service leaves it, unless it follows "number" ("number five" -> "number 5").
 */
export function findNumberRuns(tokens: readonly string[]): NumberRun[] {
  const runs: NumberRun[] = [];
  let at = 0;
  while (at < tokens.length) {
    const first = readCardinal(tokens, at);
    if (!first) {
      at++;
      continue;
    }
    let digits = String(first.value);
    let next = first.next;
    for (let more = readCardinal(tokens, next); more; more = readCardinal(tokens, next)) {
      digits += String(more.value);
      next = more.next;
    }
    const lone = next - at === 1 && first.value < 10;
    if (!lone || tokens[at - 1] === 'number') runs.push({ start: at, end: next, digits });
    at = next;
  }
  return runs;
}

/** Convenience for plain text: the spoken numbers of a space-separated lower-case sentence as digits. */
export function digitise(text: string): string {
  const tokens = text.split(/\s+/).filter(Boolean);
  const out: string[] = [];
  let at = 0;
  for (const run of findNumberRuns(tokens)) {
    out.push(...tokens.slice(at, run.start), run.digits);
    at = run.end;
  }
  out.push(...tokens.slice(at));
  return out.join(' ');
}
