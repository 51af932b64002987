/**
 * Diarization accuracy of the transcription emulator: a few conversations of flite voices taking turns, each
 * recognised by PocketSphinx with voices measured, then labelled with the count left open and with the true
 * count given (speakers_expected). Accuracy is the fraction of recognised words whose speaker matches the true
 * speaker of the turn they fall in, under the best one-to-one mapping of labels to voices.
 *
 *   pnpm --filter @x/sandbox exec tsx bench/diarization.ts
 */
import { createEngine } from '../src/transcription/engine/index.js';
import {
  type ConversationTurn,
  synthesizeConversation,
  turnAt,
} from '../src/transcription/speakers/conversation.js';
import { labelWords } from '../src/transcription/speakers/label.js';

const LINES = [
  'Hello, thank you for calling the support desk. How can I help you today?',
  'My package arrived yesterday and the box was badly damaged.',
  'I am sorry to hear that. Can you tell me your order number please?',
  'Yes, the order number is four five six seven.',
  'Thank you. I will send a replacement today at no cost.',
  'That is great news. How long will the delivery take?',
];

const CONVERSATIONS: string[][] = [
  ['slt'],
  ['kal16'],
  ['awb'],
  ['slt', 'kal16'],
  ['slt', 'awb'],
  ['awb', 'slt'],
  ['slt', 'rms'],
  ['kal16', 'awb'],
  ['slt', 'awb', 'kal16'],
];

function turnsOf(voices: readonly string[]): ConversationTurn[] {
  return LINES.map((text, i) => ({ voice: voices[i % voices.length]!, text }));
}

/** The best one-to-one mapping of labels to voices: words right under it, by trying every mapping. */
function bestMatch(pairs: readonly [label: string, voice: string][]): number {
  const labels = [...new Set(pairs.map(([l]) => l))];
  const voices = [...new Set(pairs.map(([, v]) => v))];
  let best = 0;
  const assign = (i: number, used: Set<string>, mapping: Map<string, string>) => {
    if (i === labels.length) {
      best = Math.max(best, pairs.filter(([l, v]) => mapping.get(l) === v).length);
      return;
    }
    assign(i + 1, used, mapping); // a label mapped to no voice (more labels than voices)
    for (const voice of voices) {
      if (used.has(voice)) continue;
      mapping.set(labels[i]!, voice);
      assign(i + 1, new Set([...used, voice]), mapping);
      mapping.delete(labels[i]!);
    }
  };
  assign(0, new Set(), new Map());
  return best;
}

const engine = createEngine();
let totals = { open: 0, exact: 0, words: 0 };
console.log('voices                 words  speakers(open)  accuracy(open)  accuracy(speakers_expected)');
for (const voices of CONVERSATIONS) {
  const conversation = await synthesizeConversation(turnsOf(voices));
  try {
    const recognised = await engine.transcribe(conversation.path, { voices: true });
    const track = [
      { channel: null, words: recognised.words, ...(recognised.voices && { voices: recognised.voices }) },
    ];
    const run = (params: Record<string, unknown>) => {
      const words = labelWords({ speaker_labels: true, ...params }, track, () => true);
      const pairs = words.flatMap((w): [string, string][] => {
        const turn = turnAt(conversation.turns, w);
        return turn ? [[w.speaker ?? '', turn.voice]] : [];
      });
      return {
        correct: bestMatch(pairs),
        n: pairs.length,
        speakers: new Set(words.map((w) => w.speaker)).size,
      };
    };
    const open = run({});
    const exact = run({ speakers_expected: voices.length });
    totals = {
      open: totals.open + open.correct,
      exact: totals.exact + exact.correct,
      words: totals.words + open.n,
    };
    console.log(
      `${voices.join('+').padEnd(22)} ${String(open.n).padStart(5)}  ${`${open.speakers} of ${voices.length}`.padStart(14)}  ${(open.correct / open.n).toFixed(3).padStart(14)}  ${(exact.correct / exact.n).toFixed(3).padStart(27)}`,
    );
  } finally {
    await conversation.dispose();
  }
}
console.log(
  `${'all'.padEnd(22)} ${String(totals.words).padStart(5)}  ${''.padStart(14)}  ${(totals.open / totals.words).toFixed(3).padStart(14)}  ${(totals.exact / totals.words).toFixed(3).padStart(27)}`,
);
