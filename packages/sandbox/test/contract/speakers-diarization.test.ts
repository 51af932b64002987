/**
 * Contract: speaker labels and multichannel, through the official `assemblyai` SDK 4.41.5, against the emulator
 * over real sockets (@x/transcription's side is its test/integration/speakers.test.ts). The audio is real speech:
 * flite voices of clearly different pitch (slt, a woman's; awb and kal16, two men's) taking turns, recognised
 * by PocketSphinx. Recognition is imperfect, so the assertions are about turns, never exact word texts: every
 * word is mapped to the turn its middle falls in, and the labels must map turns to speakers consistently.
 */
import { AssemblyAI, type Transcript } from 'assemblyai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import {
  type Conversation,
  synthesizeConversation,
  turnAt,
} from '../../src/transcription/speakers/conversation.js';

const speech_models = ['universal-2'];
const polling = { pollingInterval: 100, pollingTimeout: 60_000 };

const TWO_VOICES = [
  { voice: 'slt', text: 'Hello, thank you for calling the support desk. How can I help you today?' },
  { voice: 'kal16', text: 'My package arrived yesterday and the box was badly damaged.' },
  { voice: 'slt', text: 'I am sorry to hear that. Can you tell me your order number please?' },
  { voice: 'kal16', text: 'Yes, the order number is four five six seven.' },
];
const THREE_VOICES = [
  { voice: 'slt', text: 'Good morning everyone, welcome to the weekly meeting.' },
  { voice: 'awb', text: 'Thanks. I have finished the report on the new warehouse.' },
  { voice: 'kal16', text: 'Great, the shipping numbers look much better this month.' },
  { voice: 'slt', text: 'Wonderful. Let us move on to the next item on the list.' },
];

type Word = { start: number; end: number; speaker?: string | null; channel?: string | null };
type Utterance = Word & { speaker: string; words: Word[] };

/** Each word's true turn index (by its middle); every word must fall in some turn. */
function turnOf(conversation: Conversation, word: Word): number {
  const turn = turnAt(conversation.turns, word);
  expect(turn, `word at ${word.start}-${word.end} ms lies outside every turn`).toBeDefined();
  return conversation.turns.indexOf(turn!);
}

/**
 * The labels map voices to speakers one to one: a voice's turns all carry its label (by the turn's majority,
 * so one misheard word at a turn's edge does not decide), and two voices never share one.
 */
function expectConsistentSpeakers(conversation: Conversation, words: readonly Word[]): Map<string, string> {
  const votes = conversation.turns.map(() => new Map<string, number>());
  for (const word of words) {
    const counts = votes[turnOf(conversation, word)]!;
    counts.set(word.speaker!, (counts.get(word.speaker!) ?? 0) + 1);
  }
  const byVoice = new Map<string, string>();
  conversation.turns.forEach((turn, i) => {
    const majority = [...votes[i]!].sort((a, b) => b[1] - a[1])[0]?.[0];
    expect(majority, `turn ${i} (${turn.voice}) has no recognised words`).toBeDefined();
    if (byVoice.has(turn.voice)) expect(majority).toBe(byVoice.get(turn.voice));
    else byVoice.set(turn.voice, majority!);
  });
  expect(new Set(byVoice.values()).size).toBe(byVoice.size);
  return byVoice;
}

/** Every utterance's words come from one turn, and an utterance's speaker is its words'. */
function expectUtterancesWithinTurns(conversation: Conversation, utterances: readonly Utterance[]): void {
  for (const utterance of utterances) {
    expect(new Set(utterance.words.map((w) => turnOf(conversation, w))).size).toBe(1);
    expect(new Set(utterance.words.map((w) => w.speaker))).toEqual(new Set([utterance.speaker]));
  }
}

describe('speaker labels and multichannel against the transcription emulator', () => {
  let sandbox: Sandbox<false>;
  let sdk: AssemblyAI;
  let two: Conversation;
  let three: Conversation;
  let stereo: Conversation;
  let twoUrl: string;

  beforeAll(async () => {
    sandbox = await startSandbox({ store: false, transcription: { rateLimit: false } });
    sdk = new AssemblyAI({ apiKey: sandbox.transcription!.apiKey, baseUrl: sandbox.url });
    two = await synthesizeConversation(TWO_VOICES);
    three = await synthesizeConversation(THREE_VOICES);
    stereo = await synthesizeConversation(
      TWO_VOICES.map((turn) => ({ ...turn, channel: turn.voice === 'slt' ? 1 : 2 })),
      { channels: 2 },
    );
    twoUrl = await sdk.files.upload(two.path);
  });

  afterAll(async () => {
    await sandbox?.transcription?.idle();
    await sandbox?.close();
    await Promise.all([two, three, stereo].map((c) => c?.dispose()));
  });

  it('SDK, two voices: two speakers A and B in order of first appearance, each utterance within one turn', async () => {
    const transcript = await sdk.transcripts.transcribe(
      { audio: twoUrl, speech_models, speaker_labels: true },
      polling,
    );
    expect(transcript.status).toBe('completed');
    const words = transcript.words!;
    expect(new Set(words.map((w) => w.speaker))).toEqual(new Set(['A', 'B']));
    expect(words[0]!.speaker).toBe('A');
    expect(expectConsistentSpeakers(two, words)).toEqual(
      new Map([
        ['slt', 'A'],
        ['kal16', 'B'],
      ]),
    );
    const utterances = transcript.utterances!;
    expectUtterancesWithinTurns(two, utterances);
    // Utterances are the words cut where the speaker changes: all of them, in order, none twice.
    expect(utterances.flatMap((u) => u.words)).toEqual(words);
    for (let i = 1; i < utterances.length; i++) {
      expect(utterances[i]!.speaker).not.toBe(utterances[i - 1]!.speaker);
    }
    for (const u of utterances) {
      expect(u).toMatchObject({ start: u.words[0]!.start, end: u.words.at(-1)!.end });
      expect(u.text).toBe(u.words.map((w) => w.text).join(' '));
      expect(u.confidence).toBeGreaterThanOrEqual(0);
      expect(u.confidence).toBeLessThanOrEqual(1);
    }
    // Sentences belong to one voice each.
    const { sentences } = await sdk.transcripts.sentences(transcript.id);
    for (const s of sentences) expect(new Set(s.words.map((w) => w.speaker))).toEqual(new Set([s.speaker]));
  });

  it('speakers_expected 1: every word is speaker A, one utterance', async () => {
    const transcript = await sdk.transcripts.transcribe(
      { audio: twoUrl, speech_models, speaker_labels: true, speakers_expected: 1 },
      polling,
    );
    expect(new Set(transcript.words!.map((w) => w.speaker))).toEqual(new Set(['A']));
    expect(transcript.utterances!.map((u) => u.speaker)).toEqual(['A']);
  });

  it('three voices with speaker_options min 3: three speakers, one per voice', async () => {
    const transcript: Transcript = await sdk.transcripts.transcribe(
      {
        audio: three.path,
        speech_models,
        speaker_labels: true,
        speaker_options: { min_speakers_expected: 3 },
      },
      polling,
    );
    expect(new Set(transcript.words!.map((w) => w.speaker))).toEqual(new Set(['A', 'B', 'C']));
    expect(expectConsistentSpeakers(three, transcript.words!)).toEqual(
      new Map([
        ['slt', 'A'],
        ['awb', 'B'],
        ['kal16', 'C'],
      ]),
    );
  });

  it('multichannel: a voice per channel gives channel-tagged words and utterances, speaker = channel', async () => {
    const transcript = await sdk.transcripts.transcribe(
      { audio: stereo.path, speech_models, multichannel: true },
      polling,
    );
    expect(transcript.status).toBe('completed');
    expect(transcript.audio_channels).toBe(2);
    const words = transcript.words!;
    expect(words.map((w) => w.start)).toEqual(words.map((w) => w.start).sort((a, b) => a - b));
    for (const word of words) {
      const turn = stereo.turns[turnOf(stereo, word)]!;
      expect(word.channel).toBe(String(turn.channel));
      expect(word.speaker).toBe(word.channel);
    }
    expect(new Set(words.map((w) => w.channel))).toEqual(new Set(['1', '2']));
    const utterances = transcript.utterances!;
    expectUtterancesWithinTurns(stereo, utterances);
    for (const u of utterances) {
      expect(u.channel).toBe(u.speaker);
      expect(new Set(u.words.map((w) => w.channel))).toEqual(new Set([u.channel]));
    }
  });

  it('multichannel with speaker_labels: speakers are found per channel ("1A", "2A")', async () => {
    const transcript = await sdk.transcripts.transcribe(
      { audio: stereo.path, speech_models, multichannel: true, speaker_labels: true },
      polling,
    );
    expect(transcript.audio_channels).toBe(2);
    expect(new Set(transcript.words!.map((w) => w.speaker))).toEqual(new Set(['1A', '2A']));
    for (const w of transcript.words!) expect(w.speaker!.startsWith(w.channel!)).toBe(true);
  });
});
