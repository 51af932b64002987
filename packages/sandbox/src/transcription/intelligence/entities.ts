/**
 * `entities[]` (openapi.yml `Entity`: entity_type, text, start, end) found in the recognised words.
 *
 * People, places, organisations, money, dates, e-mail addresses, phone numbers and URLs come from compromise's
 * tagger; numbers the engine writes as digits are classed by the words before them, as a caller says them:
 * "order number 85" and "tracking number ..." are `number_sequence` (the service's class for identifiers that
 * fit no other), "account/member/policy number ..." `account_number`, "call me at 5551234" and numbers of
 * phone length `phone_number`. Spoken e-mail addresses ("tom at example dot com") are found by rule too.
 * Every entity is a run of whole words, so its text occurs in the transcript and its times are the words'.
 */
import nlp from 'compromise';
import type { TranscriptWord } from '../derive/types.js';
import {
  chunkWords,
  MAX_CHUNK_WORDS,
  spanOf,
  trimPunctuation,
  wordSpans,
  wordsInRange,
} from './word-spans.js';

/** openapi.yml `EntityType`, the values the emulator produces (the enum is open on the wire). */
export type EntityType =
  | 'person_name'
  | 'location'
  | 'organization'
  | 'money_amount'
  | 'date'
  | 'email_address'
  | 'phone_number'
  | 'url'
  | 'number_sequence'
  | 'account_number'
  | (string & {});

export interface Entity {
  entity_type: EntityType;
  text: string;
  start: number;
  end: number;
}

interface Found {
  type: EntityType;
  first: number;
  last: number;
}

/** compromise's views, in the order an overlap is settled (earlier wins). */
const TAGGED: readonly (readonly [EntityType, string])[] = [
  ['email_address', '#Email'],
  ['url', '#Url'],
  ['phone_number', '#PhoneNumber'],
  ['money_amount', '#Money+'],
  ['person_name', '#Person+'],
  ['organization', '#Organization+'],
  ['location', '#Place+'],
  ['date', '#Date+'],
];

const ORDER_WORDS = new Set(['order', 'tracking', 'reference', 'confirmation', 'invoice', 'ticket', 'case']);
const ACCOUNT_WORDS = new Set(['account', 'member', 'membership', 'policy', 'customer']);
const PHONE_WORDS = new Set(['phone', 'call', 'reach', 'mobile', 'cell', 'fax', 'text', 'telephone']);
/** Words that may sit between the context word and the number: "order number is 85", "call me at ...". */
const FILLERS = new Set([
  'number',
  'no',
  'id',
  'is',
  'was',
  'me',
  'us',
  'at',
  'on',
  'of',
  'it',
  "it's",
  'the',
  'my',
]);

const bare = (text: string) => trimPunctuation(text).toLowerCase();

/** The class of a digit word from the words said before it, or null when it is just a number. */
function numberClass(words: readonly TranscriptWord[], index: number): EntityType | null {
  const digits = bare(words[index]!.text).replace(/[-#()]/g, '');
  if (!/^\d+$/.test(digits)) return null;
  for (let i = index - 1; i >= Math.max(0, index - 4); i--) {
    const word = bare(words[i]!.text);
    if (ORDER_WORDS.has(word)) return 'number_sequence';
    if (ACCOUNT_WORDS.has(word)) return 'account_number';
    if (PHONE_WORDS.has(word)) return digits.length >= 7 ? 'phone_number' : null;
    if (!FILLERS.has(word)) break;
  }
  return digits.length === 10 || digits.length === 11 ? 'phone_number' : null;
}

const TOP_LEVEL = new Set(['com', 'org', 'net', 'io', 'co', 'uk', 'de', 'edu', 'gov']);

/** "name at domain dot com" as said aloud, starting at word `at`: the index of its last word, or -1. */
export function spokenEmailEnd(words: readonly TranscriptWord[], at: number): number {
  if (bare(words[at + 1]?.text ?? '') !== 'at' || !/^[a-z0-9._-]+$/.test(bare(words[at]!.text))) return -1;
  let i = at + 2;
  let end = -1;
  while (/^[a-z0-9-]+$/.test(bare(words[i]?.text ?? ''))) {
    if (bare(words[i + 1]?.text ?? '') !== 'dot') break;
    const next = bare(words[i + 2]?.text ?? '');
    if (!/^[a-z0-9-]+$/.test(next)) break;
    i += 2;
    if (TOP_LEVEL.has(next)) end = i;
  }
  return end;
}

function byRules(words: readonly TranscriptWord[]): Found[] {
  const found: Found[] = [];
  for (let i = 0; i < words.length; i++) {
    const email = spokenEmailEnd(words, i);
    if (email >= 0) {
      found.push({ type: 'email_address', first: i, last: email });
      i = email;
      continue;
    }
    const type = numberClass(words, i);
    if (type) found.push({ type, first: i, last: i });
  }
  return found;
}

/**
 * compromise's findings, chunk by chunk (see `chunkWords`), in TAGGED's order over the whole transcript. A
 * finding counts in the chunk where it starts; one that runs on into the next chunk's words ("new york" across
 * a cut) keeps them, so what the next chunk finds starting inside it ("york" alone) is dropped.
 */
function byTagger(words: readonly TranscriptWord[], maxChunkWords: number): Found[] {
  const byType = TAGGED.map((): Found[] => []);
  let spill = -1;
  for (const { spans, first, owned } of chunkWords(words, maxChunkWords)) {
    const doc = nlp(spans.text);
    let reach = spill;
    TAGGED.forEach(([type, match], t) => {
      for (const item of doc.match(match).json({ offset: true }) as {
        offset: { start: number; length: number };
      }[]) {
        const range = wordsInRange(spans, item.offset.start, item.offset.start + item.offset.length);
        if (!range || range[0] >= owned || first + range[0] <= spill) continue;
        byType[t]!.push({ type, first: first + range[0], last: first + range[1] });
        reach = Math.max(reach, first + range[1]);
      }
    });
    spill = reach;
  }
  return byType.flat();
}

/**
 * Entities in time order; where findings overlap, the rules' (said in context) win, then TAGGED's order.
 * `maxChunkWords` bounds what compromise reads at once (tests compare it against one unbounded pass).
 */
export function detectEntities(
  words: readonly TranscriptWord[],
  maxChunkWords: number = MAX_CHUNK_WORDS,
): Entity[] {
  const spans = wordSpans(words);
  const taken = new Uint8Array(words.length);
  const entities: (Entity & { index: number })[] = [];
  for (const found of [...byRules(words), ...byTagger(words, maxChunkWords)]) {
    let free = true;
    for (let i = found.first; i <= found.last; i++) if (taken[i]) free = false;
    if (!free) continue;
    const span = spanOf(spans, found.first, found.last);
    if (span.text === '') continue;
    taken.fill(1, found.first, found.last + 1);
    entities.push({ entity_type: found.type, ...span, index: found.first });
  }
  return entities
    .sort((a, b) => a.index - b.index)
    .map(({ entity_type, text, start, end }) => ({ entity_type, text, start, end }));
}
