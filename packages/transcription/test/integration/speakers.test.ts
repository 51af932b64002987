/**
 * Speaker labels through this SDK against the sandbox's emulator: two flite voices of clearly different pitch
 * (slt, a woman's; kal16, a man's) taking four turns, really recognised. Recognition is imperfect, so the
 * assertions are about turns, not word texts: each word belongs to the turn its middle falls in, the labels map
 * voices to speakers one to one, and no utterance spans two turns. (The official SDK's side, and multichannel,
 * are in packages/sandbox/test/contract/speakers-diarization.test.ts.)
 */
import { type Conversation, synthesizeConversation, turnAt } from '@x/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptionClient } from '../../src/index.js';
import { clientFor, sandbox } from '../helpers/sandbox.js';

const TURNS = [
  { voice: 'slt', text: 'Hello, thank you for calling the support desk. How can I help you today?' },
  { voice: 'kal16', text: 'My package arrived yesterday and the box was badly damaged.' },
  { voice: 'slt', text: 'I am sorry to hear that. Can you tell me your order number please?' },
  { voice: 'kal16', text: 'Yes, the order number is four five six seven.' },
];

let box: Awaited<ReturnType<typeof sandbox>>;
let client: TranscriptionClient;
let conversation: Conversation;

beforeAll(async () => {
  box = await sandbox();
  client = clientFor(box);
  conversation = await synthesizeConversation(TURNS);
});

afterAll(async () => {
  await box?.transcription.idle();
  await box?.close();
  await conversation?.dispose();
});

describe('speaker labels', () => {
  it('two voices: speakers A and B, one per voice, and every utterance within one turn', async () => {
    const transcript = await client.transcripts.transcribe(
      { audio: conversation.path, speech_models: ['universal-2'], speaker_labels: true },
      { pollInterval: 100, maxPollInterval: 200, deadline: 60_000 },
    );
    const words = transcript.words ?? [];
    const turnIndex = (w: { start: number; end: number }) => {
      const turn = turnAt(conversation.turns, w);
      expect(turn, `word at ${w.start}-${w.end} ms lies outside every turn`).toBeDefined();
      return conversation.turns.indexOf(turn!);
    };
    // The majority label of each turn, so one misheard word at a turn's edge does not decide.
    const votes = conversation.turns.map(() => new Map<string, number>());
    for (const w of words) {
      const counts = votes[turnIndex(w)]!;
      counts.set(w.speaker!, (counts.get(w.speaker!) ?? 0) + 1);
    }
    const labels = votes.map((counts) => [...counts].sort((a, b) => b[1] - a[1])[0]?.[0]);
    expect(labels).toEqual(['A', 'B', 'A', 'B']);
    expect(new Set(words.map((w) => w.speaker))).toEqual(new Set(['A', 'B']));
    const utterances = transcript.utterances ?? [];
    expect(utterances.length).toBeGreaterThanOrEqual(4);
    for (const u of utterances) {
      expect(new Set(u.words.map(turnIndex)).size).toBe(1);
      expect(new Set(u.words.map((w) => w.speaker))).toEqual(new Set([u.speaker]));
    }
  });
});
