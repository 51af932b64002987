/**
 * speech_understanding's `custom_formatting`: dates, phone numbers and e-mail addresses of the transcript
 * rewritten to the patterns the request gives, answered as `mapping` (each original text to its formatted
 * form) and `formatted_text` (the transcript's text with every mapped span replaced).
 *
 * - `phone_number` ("(xxx)xxx-xxxx"): a run of digits as the engine writes it fills the pattern's x's when the
 *   counts match; other numbers are left alone.
 * - `email` ("username@domain.com"): an address said aloud ("tom at example dot com") is written as one.
 * - `date` ("mm/dd/yyyy", "dd.mm.yy", "yyyy-mm-dd"...): "March 3rd 2024", "3 March 2024" and "March 3" (when
 *   the pattern has no year) are rewritten; anything else stays as said.
 */

import { splitTrailing, WORD_END_PUNCTUATION } from '../derive/edges.js';
import type { TranscriptWord } from '../derive/types.js';
import { spokenEmailEnd } from './entities.js';
import { trimPunctuation } from './word-spans.js';

export interface CustomFormattingRequest {
  date?: string;
  phone_number?: string;
  email?: string;
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

function formatPhone(digits: string, pattern: string): string | null {
  const slots = pattern.match(/x/gi)?.length ?? 0;
  if (slots === 0 || slots !== digits.length) return null;
  let i = 0;
  return pattern.replace(/x/gi, () => digits[i++]!);
}

function formatDate(day: number, month: number, year: number | null, pattern: string): string | null {
  if (year === null && /y/i.test(pattern)) return null;
  const pad = (n: number) => String(n).padStart(2, '0');
  return pattern.replace(/yyyy|yy|mm|dd|m|d/gi, (token) => {
    switch (token.toLowerCase()) {
      case 'yyyy':
        return String(year);
      case 'yy':
        return pad((year ?? 0) % 100);
      case 'mm':
        return pad(month);
      case 'dd':
        return pad(day);
      case 'm':
        return String(month);
      default:
        return String(day);
    }
  });
}

const bare = (text: string) => trimPunctuation(text).toLowerCase();
const dayOf = (text: string) => {
  const m = /^(\d{1,2})(?:st|nd|rd|th)?$/.exec(bare(text));
  const day = m ? Number(m[1]) : 0;
  return day >= 1 && day <= 31 ? day : null;
};
const yearOf = (text: string | undefined) => (text && /^\d{4}$/.test(bare(text)) ? Number(bare(text)) : null);

/** A date starting at word `at`: its last word and the parts, or null. */
function dateAt(words: readonly TranscriptWord[], at: number) {
  const first = bare(words[at]!.text);
  const month = MONTHS.indexOf(first) + 1;
  if (month > 0 && words[at + 1]) {
    const day = dayOf(words[at + 1]!.text);
    if (day !== null) {
      const year = /[.!?]$/.test(words[at + 1]!.text) ? null : yearOf(words[at + 2]?.text);
      return { last: at + (year === null ? 1 : 2), day, month, year };
    }
  }
  const day = dayOf(first);
  const monthAfter = MONTHS.indexOf(bare(words[at + 1]?.text ?? '')) + 1;
  if (day !== null && monthAfter > 0) {
    const year = yearOf(words[at + 2]?.text);
    return { last: at + (year === null ? 1 : 2), day, month: monthAfter, year };
  }
  return null;
}

export function customFormat(
  words: readonly TranscriptWord[],
  request: CustomFormattingRequest,
): { mapping: Record<string, string>; formatted_text: string } {
  const mapping = new Map<string, string>();
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    let replaced: { last: number; text: string } | null = null;
    if (request.email) {
      const end = spokenEmailEnd(words, i);
      if (end >= 0) {
        const parts = words.slice(i, end + 1).map((w) => bare(w.text));
        const address = parts.join(' ').replace(/ at /, '@').replace(/ dot /g, '.');
        replaced = { last: end, text: address };
      }
    }
    if (!replaced && request.date) {
      const date = dateAt(words, i);
      const text = date && formatDate(date.day, date.month, date.year, request.date);
      if (date && text) replaced = { last: date.last, text };
    }
    if (!replaced && request.phone_number) {
      const digits = bare(words[i]!.text).replace(/-/g, '');
      const text = /^\d+$/.test(digits) ? formatPhone(digits, request.phone_number) : null;
      if (text) replaced = { last: i, text };
    }
    if (!replaced) {
      out.push(words[i]!.text);
      continue;
    }
    const original = trimPunctuation(
      words
        .slice(i, replaced.last + 1)
        .map((w) => w.text)
        .join(' '),
    );
    const [, trailing] = splitTrailing(words[replaced.last]!.text, WORD_END_PUNCTUATION);
    mapping.set(original, replaced.text);
    out.push(replaced.text + trailing);
    i = replaced.last;
  }
  return { mapping: Object.fromEntries(mapping), formatted_text: out.join(' ') };
}
