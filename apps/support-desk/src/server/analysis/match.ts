/**
 * Finding the order numbers and the caller's name in a transcript. Pure functions over text: speech
 * recognisers write numbers as digits ("order number 88") but also split them ("80 for" for
 * "eighty-four") and drop them into the next sentence at a pause ("my order. Number 84."), so the rules
 * look a little past sentence ends and join a round ten with a digit word that sounds like one.
 */

const DIGIT_WORDS: Record<string, number> = {
  one: 1,
  won: 1,
  two: 2,
  to: 2,
  too: 2,
  three: 3,
  four: 4,
  for: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  ate: 8,
  nine: 9,
};

/** "order", then up to 40 characters without a digit (`number is`, `no.`, `#`, a pause), then the number. */
const ORDER_REFERENCE = /\border\b[^\d]{0,40}?(\d[\d,-]*\d|\d)(?:[\s.]+([a-z]+))?/gi;

/** Order numbers mentioned after the word "order", in order of mention, without repeats. */
export function findOrderNumbers(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(ORDER_REFERENCE)) {
    const digits = match[1]!.replace(/[,-]/g, '');
    const next = match[2]?.toLowerCase();
    const value = Number(digits);
    // "80 for" is how a recogniser writes "eighty-four": a round ten followed by a digit that sounds like a word.
    const joined =
      next !== undefined && DIGIT_WORDS[next] !== undefined && value >= 20 && value <= 90 && value % 10 === 0
        ? String(value + DIGIT_WORDS[next]!)
        : digits;
    if (!found.includes(joined)) found.push(joined);
  }
  return found;
}

/**
 * "my name is" (sure), or "this is" / "it's" (often not a name: "it's been two weeks"), then one or two
 * words. Letters of any script: an ASCII class cut "José" to "Jos", which then mismatched the order's José.
 */
const NAME_INTRO =
  /\b(my name is|my name['’]s|this is|it['’]s|it is)\s+(\p{L}[\p{L}'’-]+)(?:\s+(\p{L}[\p{L}'’-]+))?/giu;

/** Words that follow "this is" without being a name ("this is terrible service"). */
const NOT_NAMES = new Set(
  (
    'a an the about my your our their his her its not so very really just terrible awful great good bad ' +
    'unacceptable ridiculous urgent important regarding calling because about again still what why how ' +
    'late broken wrong fine okay ok me him them us it that this there here and or but for to of in on ' +
    'been going gone now only all too never always from'
  ).split(' '),
);

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}

/**
 * Whether the recogniser capitalises proper nouns (AssemblyAI's formatted text does; a plain recogniser
 * capitalises only sentence starts and "I"): a capital after a word that ends no sentence, other than "I".
 */
function capitalisesNames(text: string): boolean {
  return /[^.!?\s]\s+(?!I\b|I['’])\p{Lu}/u.test(text);
}

const isCapital = (word: string) => /^\p{Lu}/u.test(word);

/**
 * Names the caller gives ("my name is Jane Smith", "this is Jane"), capitalised, without repeats. After
 * "this is" or "it's", in a text that capitalises names, only a capitalised word is one.
 */
export function findCustomerNames(text: string): string[] {
  const names: string[] = [];
  const strict = capitalisesNames(text);
  for (const match of text.matchAll(NAME_INTRO)) {
    const weak = !match[1]!.toLowerCase().startsWith('my name');
    const ok = (word: string | undefined): word is string =>
      word !== undefined && !NOT_NAMES.has(word.toLowerCase()) && !(weak && strict && !isCapital(word));
    if (!ok(match[2])) continue;
    const first = capitalise(match[2]);
    const name = ok(match[3]) ? `${first} ${capitalise(match[3])}` : first;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** Lower case without accents: "Müller" and "muller" compare equal, as a recogniser would write it. */
export function foldName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();
}

export interface NamedPerson {
  id: number;
  first_name: string;
  last_name: string;
}

/**
 * The person whose name was said: first and last name both heard beats the last name alone, which beats
 * the first name alone; a tie between two people is no match (a support note on the wrong customer is
 * worse than none).
 */
export function matchCustomer<P extends NamedPerson>(
  names: readonly string[],
  people: readonly P[],
): P | null {
  let best: { person: P; score: number } | null = null;
  let tie = false;
  for (const person of people) {
    const first = foldName(person.first_name);
    const last = foldName(person.last_name);
    for (const name of names) {
      const words = foldName(name).split(/\s+/);
      const score =
        (words.includes(first) && first !== '' ? 1 : 0) + (words.includes(last) && last !== '' ? 2 : 0);
      if (score === 0) continue;
      if (!best || score > best.score) {
        best = { person, score };
        tie = false;
      } else if (score === best.score && best.person.id !== person.id) {
        tie = true;
      }
    }
  }
  return best && !tie ? best.person : null;
}
