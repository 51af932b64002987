/**
 * The words of a sample customer call about an order, for the "generate a sample call" button: a text
 * speech synthesis reads aloud. Numbers are written as words so every synthesiser says them the same way.
 */

const ONES =
  'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen'.split(
    ' ',
  );
const TENS = ' ten twenty thirty forty fifty sixty seventy eighty ninety'.split(' ');

/** 84 → "eighty four", 1203 → "one thousand two hundred three"; below a million. */
export function numberToWords(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n >= 1_000_000) throw new RangeError(`cannot say ${n}`);
  if (n < 20) return ONES[n]!;
  if (n < 100) return n % 10 === 0 ? TENS[n / 10]! : `${TENS[Math.floor(n / 10)]} ${ONES[n % 10]}`;
  if (n < 1000) {
    const rest = n % 100;
    return `${ONES[Math.floor(n / 100)]} hundred${rest ? ` ${numberToWords(rest)}` : ''}`;
  }
  const rest = n % 1000;
  return `${numberToWords(Math.floor(n / 1000))} thousand${rest ? ` ${numberToWords(rest)}` : ''}`;
}

export type Mood = 'unhappy' | 'happy';

export interface SampleCallInput {
  orderNumber: string;
  firstName: string;
  lastName: string;
  mood: Mood;
  /** The name the caller gives, when it is not the order's customer (someone calling for them). */
  callerName?: string;
}

/** Who speaks a line: the synthesiser gives the two a different voice, so diarization can tell them apart. */
export type SampleSpeaker = 'agent' | 'customer';

export interface SampleCallLine {
  speaker: SampleSpeaker;
  text: string;
}

/**
 * An agent and a customer taking turns. The agent opens as support does ("thank you for calling"), the
 * customer gives a name and the order number; an unhappy customer complains and asks for a refund, a happy
 * one thanks.
 */
export function sampleCallScript({
  orderNumber,
  firstName,
  lastName,
  mood,
  callerName,
}: SampleCallInput): SampleCallLine[] {
  const spoken = /^\d+$/.test(orderNumber) ? numberToWords(Number(orderNumber)) : orderNumber;
  const name = callerName?.trim() || `${firstName} ${lastName}`.trim() || 'a customer';
  const agent = (text: string): SampleCallLine => ({ speaker: 'agent', text });
  const customer = (text: string): SampleCallLine => ({ speaker: 'customer', text });
  const lines =
    mood === 'unhappy'
      ? [
          customer(
            `Hello, my name is ${name}. My order number ${spoken} arrived broken, and I want a refund. I am very unhappy. This is terrible service.`,
          ),
          agent('I am sorry about that. I will send you a refund today.'),
        ]
      : [
          customer(
            `Hello, my name is ${name}. I am calling about order number ${spoken}. Everything arrived on time, and it looks great. I love it.`,
          ),
          agent('That is wonderful to hear. Have a nice day.'),
        ];
  return [
    agent('Thank you for calling the support desk. How can I help you?'),
    ...lines,
    customer('Goodbye.'),
  ];
}

/** The script as one text, each line on its own. */
export function scriptText(lines: readonly SampleCallLine[]): string {
  return lines.map((l) => l.text).join(' ');
}
