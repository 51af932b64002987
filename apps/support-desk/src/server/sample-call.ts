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
}

/** Sentences with a pause between them; an unhappy call complains, a happy one thanks. */
export function sampleCallScript({ orderNumber, firstName, lastName, mood }: SampleCallInput): string {
  const spoken = /^\d+$/.test(orderNumber) ? numberToWords(Number(orderNumber)) : orderNumber;
  const name = `${firstName} ${lastName}`.trim() || 'a customer';
  const opening = [`Hello, my name is ${name}.`, `I am calling about order number ${spoken}.`];
  const body =
    mood === 'unhappy'
      ? [
          'The parcel arrived two weeks late, and the box was damaged.',
          'I am very unhappy.',
          'This is terrible service.',
          'Please send me a refund.',
        ]
      : ['Everything arrived on time, and it looks great.', 'I love it.', 'Thank you so much.'];
  return [...opening, ...body, 'Goodbye.'].join(' ');
}
