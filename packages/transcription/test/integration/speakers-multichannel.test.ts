/**
 * `multichannel` through this SDK against the sandbox over a real socket: an agent (flite slt) on channel 1
 * and a customer (kal16) on channel 2 taking turns, each channel silent while the other speaks. Asserted:
 * `audio_channels` is 2, every word, utterance and sentiment sentence carries the channel its turn was on,
 * the channel number is the speaker (as the service labels channels), and the body parses with our schema.
 */
import { type Conversation, synthesizeConversation, turnAt } from '@x/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Transcript, type TranscriptionClient, transcriptSchema } from '../../src/index.js';
import { clientFor, sandbox } from '../helpers/sandbox.js';

const TURNS = [
  { voice: 'slt', channel: 1, text: 'Thank you for calling the support desk.' },
  { voice: 'kal16', channel: 2, text: 'My order arrived broken and I want a refund.' },
  { voice: 'slt', channel: 1, text: 'I will send you a replacement today.' },
  { voice: 'kal16', channel: 2, text: 'Thank you very much.' },
];

let box: Awaited<ReturnType<typeof sandbox>>;
let client: TranscriptionClient;
let conversation: Conversation;
let call: Transcript;

beforeAll(async () => {
  box = await sandbox();
  client = clientFor(box);
  conversation = await synthesizeConversation(TURNS, { channels: 2 });
  call = await client.transcripts.transcribe(
    {
      audio: conversation.path,
      speech_models: ['universal-2'],
      multichannel: true,
      sentiment_analysis: true,
    },
    { pollInterval: 100, maxPollInterval: 200, deadline: 60_000 },
  );
});

afterAll(async () => {
  await box?.transcription.idle();
  await box?.close();
  await conversation?.dispose();
});

/** The channel, as the service spells it (a string), of the turn holding the middle of a span. */
function channelAt(span: { start: number; end: number }): string | undefined {
  const turn = turnAt(conversation.turns, span);
  return turn?.channel === undefined ? undefined : String(turn.channel);
}

it('completes with two channels, and the body parses with our schema', async () => {
  expect(call.error).toBeUndefined();
  expect(call.status).toBe('completed');
  expect(call.multichannel).toBe(true);
  expect(call.audio_channels).toBe(2);
  const res = await fetch(`${box.url}/v2/transcript/${call.id}`, {
    headers: { authorization: box.transcription.apiKey },
  });
  expect(transcriptSchema.safeParse(await res.json()).error?.issues).toBeUndefined();
});

it('every word, utterance and sentence carries the channel its turn was on, and that channel as speaker', () => {
  const words = call.words ?? [];
  expect(new Set(words.map((w) => w.channel))).toEqual(new Set(['1', '2']));
  for (const w of words) {
    expect(w.channel, `"${w.text}" at ${w.start} ms`).toBe(channelAt(w));
    expect(w.speaker).toBe(w.channel);
  }
  const utterances = call.utterances ?? [];
  expect(utterances.map((u) => u.channel)).toEqual(TURNS.map((t) => String(t.channel)));
  for (const u of utterances) {
    expect(u.speaker).toBe(u.channel);
    for (const w of u.words) expect(w.channel).toBe(u.channel);
  }
  const sentences = call.sentiment_analysis_results ?? [];
  expect(sentences.length).toBeGreaterThan(0);
  for (const s of sentences) {
    expect(s.channel).toBe(channelAt(s));
    expect(s.speaker).toBe(s.channel);
  }
  const complaint = sentences.find((s) => /refund/i.test(s.text));
  expect(complaint).toMatchObject({ channel: '2', sentiment: 'NEGATIVE' });
});
