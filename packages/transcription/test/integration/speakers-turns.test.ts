/**
 * Speaker labels and the speaker-aware intelligence through this SDK against the sandbox over a real socket:
 * two flite voices (slt, a woman's; kal, flite's default man's voice) take six turns, joined with sox by the
 * sandbox's synthesizeConversation, which also gives the true turn times. PocketSphinx hears kal's 8 kHz
 * speech mostly as other words, so nothing here depends on what the customer said, only on when. Asserted:
 * two speakers, the utterances' speakers alternate exactly as the voices do, each voice keeps one label,
 * sentiment sentences carry the speaker who said them, and speaker identification maps both labels onto the
 * roles offered. (speakers.test.ts has the four-turn slt/kal16 case; speakers-multichannel.test.ts one voice
 * per channel.)
 */
import { type Conversation, synthesizeConversation, turnAt } from '@x/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Transcript,
  type TranscriptionClient,
  type TranscriptUtterance,
  transcriptSchema,
} from '../../src/index.js';
import { clientFor, sandbox } from '../helpers/sandbox.js';

const TURNS = [
  { voice: 'slt', text: 'Thank you for calling the support desk. How can I help you today?' },
  { voice: 'kal', text: 'My order number eighty five arrived broken and I want a refund.' },
  { voice: 'slt', text: 'I am sorry to hear that. I will send you a replacement today.' },
  { voice: 'kal', text: 'Thank you, that is very helpful.' },
  { voice: 'slt', text: 'Is there anything else I can help you with?' },
  { voice: 'kal', text: 'No, that is all. Goodbye.' },
];

let box: Awaited<ReturnType<typeof sandbox>>;
let client: TranscriptionClient;
let conversation: Conversation;
let call: Transcript;

beforeAll(async () => {
  box = await sandbox();
  client = clientFor(box);
  conversation = await synthesizeConversation(TURNS);
  call = await client.transcripts.transcribe(
    {
      audio: conversation.path,
      speech_models: ['universal-2'],
      speaker_labels: true,
      speakers_expected: 2,
      sentiment_analysis: true,
      speech_understanding: {
        request: { speaker_identification: { speaker_type: 'role', known_values: ['agent', 'customer'] } },
      },
    },
    { pollInterval: 100, maxPollInterval: 200, deadline: 60_000 },
  );
});

afterAll(async () => {
  await box?.transcription.idle();
  await box?.close();
  await conversation?.dispose();
});

/** The index of the turn holding the middle of a span, -1 for none. */
function turnIndex(span: { start: number; end: number }): number {
  const turn = turnAt(conversation.turns, span);
  return turn ? conversation.turns.indexOf(turn) : -1;
}

/** The index of the turn an utterance was said in; every word of it must fall in that one turn. */
function turnOf(u: TranscriptUtterance): number {
  const turns = new Set(u.words.map(turnIndex));
  expect(turns.size, `"${u.text}" spans turns ${[...turns].join(', ')}`).toBe(1);
  const [turn] = turns;
  expect(turn, `"${u.text}" lies outside every turn`).toBeGreaterThanOrEqual(0);
  return turn!;
}

describe('two voices, six turns', () => {
  it('completes, and the body parses with our schema', async () => {
    expect(call.error).toBeUndefined();
    expect(call.status).toBe('completed');
    const res = await fetch(`${box.url}/v2/transcript/${call.id}`, {
      headers: { authorization: box.transcription.apiKey },
    });
    expect(transcriptSchema.safeParse(await res.json()).error?.issues).toBeUndefined();
  });

  it('two speakers, A and B in order of first appearance, then named by speaker identification', () => {
    const mapping = call.speech_understanding?.response?.speaker_identification?.mapping ?? {};
    expect(Object.keys(mapping).sort()).toEqual(['A', 'B']);
    // As the docs show the transcript after identification: the names replace the labels.
    expect(new Set(call.words?.map((w) => w.speaker))).toEqual(new Set([mapping.A, mapping.B]));
    expect(call.utterances?.[0]?.speaker).toBe(mapping.A);
  });

  it('utterances follow the turns: one voice one label, the label changing exactly when the voice does', () => {
    const utterances = call.utterances ?? [];
    expect(utterances.length).toBeGreaterThanOrEqual(TURNS.length);
    const labelOf = new Map<string, string>();
    const turnsHeard = new Set<number>();
    for (const [i, u] of utterances.entries()) {
      const turn = turnOf(u);
      turnsHeard.add(turn);
      expect(new Set(u.words.map((w) => w.speaker))).toEqual(new Set([u.speaker]));
      const voice = TURNS[turn]!.voice;
      expect(labelOf.get(voice) ?? u.speaker, `turn ${turn} (${voice})`).toBe(u.speaker);
      labelOf.set(voice, u.speaker);
      // Consecutive utterances change speaker if and only if they are in turns of different voices.
      const previous = utterances[i - 1];
      if (previous) {
        const changedVoice = TURNS[turnOf(previous)]!.voice !== voice;
        expect(previous.speaker !== u.speaker).toBe(changedVoice);
      }
      if (i > 0) expect(u.start).toBeGreaterThanOrEqual(utterances[i - 1]!.end);
    }
    expect(turnsHeard.size).toBe(TURNS.length);
    expect(new Set(labelOf.values()).size).toBe(2);
  });

  it('sentiment sentences carry the speaker of the turn they were said in', () => {
    const sentences = call.sentiment_analysis_results ?? [];
    expect(sentences.length).toBeGreaterThan(0);
    const labelOfTurn = (turn: number) => call.utterances?.find((u) => turnOf(u) === turn)?.speaker;
    for (const s of sentences) {
      expect(s.speaker).toBe(labelOfTurn(turnIndex(s)));
    }
  });

  it('speaker identification maps each label onto one of the roles offered, the greeting voice the agent', () => {
    const mapping = call.speech_understanding?.response?.speaker_identification?.mapping ?? {};
    expect(Object.keys(mapping).sort()).toEqual(['A', 'B']);
    expect(new Set(Object.values(mapping))).toEqual(new Set(['agent', 'customer']));
    // slt says "thank you for calling the support desk" and "how can I help you".
    const agent = call.utterances?.find((u) => TURNS[turnOf(u)]!.voice === 'slt')?.speaker;
    expect(agent).toBe('agent');
  });
});
