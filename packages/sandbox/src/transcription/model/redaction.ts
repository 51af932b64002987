import { splitTrailing, WORD_END_PUNCTUATION } from '../derive/edges.js';
import type { TranscriptWord } from './transcripts.js';

/**
 * PII redaction on the recognised words, for the policies a speech recogniser's output lets us spot without a
 * model: numbers (phone, card, account and similar policies), e-mail addresses, money amounts. Names and the
 * other policies need an entity model the emulator does not have; they are accepted and leave words as they
 * are. What gets replaced and how (`hash`: `###`, `entity_name`: `[PHONE_NUMBER]`) follows the service.
 */
const NUMBER_POLICIES = [
  'phone_number',
  'credit_card_number',
  'credit_card_cvv',
  'account_number',
  'banking_information',
  'us_social_security_number',
  'drivers_license',
  'passport_number',
  'number_sequence',
  'number',
] as const;

type Params = Record<string, unknown>;

/** The policy a word falls under, among those requested, or null. */
function policyOf(word: string, policies: ReadonlySet<string>): string | null {
  const [bare] = splitTrailing(word, WORD_END_PUNCTUATION);
  if (policies.has('email_address') && /^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(bare)) return 'email_address';
  if (policies.has('money_amount') && /^\$\d/.test(bare)) return 'money_amount';
  if (/^\d{3,}$/.test(bare.replace(/-/g, ''))) {
    for (const policy of NUMBER_POLICIES) if (policies.has(policy)) return policy;
  }
  return null;
}

function replacement(word: string, policy: string, sub: string): string {
  const [bare, trailing] = splitTrailing(word, WORD_END_PUNCTUATION);
  const masked = sub === 'entity_name' ? `[${policy.toUpperCase()}]` : '#'.repeat(bare.length);
  return masked + trailing;
}

export function redactWords(words: TranscriptWord[], params: Params): TranscriptWord[] {
  const policies = new Set(
    Array.isArray(params.redact_pii_policies) ? (params.redact_pii_policies as string[]) : [],
  );
  const sub = params.redact_pii_sub === 'entity_name' ? 'entity_name' : 'hash';
  return words.map((w) => {
    const policy = policyOf(w.text, policies);
    return policy ? { ...w, text: replacement(w.text, policy, sub) } : w;
  });
}

/** The time spans (ms) of redacted words, for silencing them in the redacted audio. */
export function redactedSpans(words: readonly TranscriptWord[]): { start: number; end: number }[] {
  return words
    .filter((w) => /^(#+|\[[A-Z_]+\])[.,!?;:]*$/.test(w.text))
    .map((w) => ({ start: w.start, end: w.end }));
}
