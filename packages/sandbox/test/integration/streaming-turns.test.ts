/**
 * The message sequence of a session, word for word, with a scripted recogniser (it "hears" fixed words as the
 * audio covering them arrives) and synthetic audio (a tone is speech, zeros are silence), over real sockets.
 * Checked against the docs' message sequence and turn detection pages: partials whose final words are a
 * prefix that is never revised and whose `transcript` is those final words; the end of an utterance after
 * `min_turn_silence`; the end of a turn when confident, or at `max_turn_silence`; the formatted copy; turn
 * order; `ForceEndpoint`, `UpdateConfiguration`, `Terminate` flushing the last turn; Universal-3 Pro's
 * `SpeechStarted`, em-dash partial and formatted final.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, type StreamWord, startSandbox } from '../../src/index.js';
import {
  concat,
  type Message,
  ScriptedRecognizers,
  StreamClient,
  silence,
  tone,
  word,
} from '../helpers/streaming.js';

/** Two sentences: the first complete ("my order is ready"), the second left open ("i want to"). */
const SCRIPT: StreamWord[] = [
  word('my', 100, 300),
  word('order', 350, 600),
  word('is', 650, 750),
  word('ready', 800, 1000),
  word('i', 2600, 2700),
  word('want', 2750, 2900),
  word('to', 2950, 3000),
];
/** Speech from 0 to 1000 ms, silence to 2500, speech to 3000, then silence. */
const AUDIO = concat(tone(1000), silence(1500), tone(500), silence(2000));

let box: Sandbox<false>;
let key: string;
const recognizers = new ScriptedRecognizers(SCRIPT);

beforeAll(async () => {
  box = await startSandbox({
    store: false,
    transcription: {
      rateLimit: false,
      streaming: {
        recognizer: recognizers.factory,
        newSessionsPerMinute: false,
        realtimeToleranceMs: 60_000,
      },
    },
  });
  key = box.transcription!.apiKey;
});

afterAll(async () => {
  await box?.close();
});

/** Streams AUDIO, sends Terminate, and answers every message the session sent. */
async function run(query: string, between?: (client: StreamClient) => void): Promise<Message[]> {
  const client = await StreamClient.open(box.transcription!.streaming.url, key, query);
  await client.stream(AUDIO.subarray(0, 32_000 * 2));
  between?.(client);
  await client.stream(AUDIO.subarray(32_000 * 2));
  client.send({ type: 'Terminate' });
  await client.next('Termination');
  expect((await client.closed).code).toBe(1000);
  return client.messages;
}

const turns = (messages: Message[]) => messages.filter((m) => m.type === 'Turn');
const text = (m: Message) => m.words.map((w: { text: string }) => w.text).join(' ');

/** Within each turn, in message order: a word once final stays, with the same text, at the same place. */
function expectFinalsNeverRevised(messages: Message[]): void {
  const finals = new Map<number, string[]>();
  for (const m of turns(messages).filter((t) => !t.turn_is_formatted)) {
    const known = finals.get(m.turn_order) ?? [];
    const words: { text: string; word_is_final: boolean }[] = m.words;
    const firstOpen = words.findIndex((w) => !w.word_is_final);
    const prefix = firstOpen === -1 ? words : words.slice(0, firstOpen);
    expect(words.slice(prefix.length).every((w) => !w.word_is_final)).toBe(true);
    expect(prefix.length).toBeGreaterThanOrEqual(known.length);
    expect(prefix.slice(0, known.length).map((w) => w.text)).toEqual(known);
    expect(m.transcript).toBe(prefix.map((w) => w.text).join(' '));
    finals.set(
      m.turn_order,
      prefix.map((w) => w.text),
    );
  }
}

describe('Universal-Streaming', () => {
  it('partials, the utterance, end of turn when confident, the formatted copy, then the next turn', async () => {
    const messages = await run('speech_model=universal-streaming-english&format_turns=true');
    expect(messages.map((m) => m.type).filter((t) => t !== 'Turn')).toEqual(['Begin', 'Termination']);
    expect(messages.some((m) => m.type === 'SpeechStarted')).toBe(false);
    expectFinalsNeverRevised(messages);
    const all = turns(messages);
    for (const m of all) {
      expect(Object.keys(m).sort()).toEqual(
        [
          'end_of_turn',
          'end_of_turn_confidence',
          'transcript',
          'turn_is_formatted',
          'turn_order',
          'type',
          'utterance',
          'words',
        ].sort(),
      );
      expect(m.end_of_turn_confidence).toBeGreaterThanOrEqual(0);
      expect(m.end_of_turn_confidence).toBeLessThanOrEqual(1);
    }
    // Turn 0: partials while speaking, then one message that ends the utterance and the turn together.
    const first = all.filter((m) => m.turn_order === 0);
    const partials = first.filter((m) => !m.end_of_turn);
    expect(partials.length).toBeGreaterThan(0);
    expect(partials.every((m) => m.utterance === '' && !m.turn_is_formatted)).toBe(true);
    const ends = first.filter((m) => m.end_of_turn);
    expect(ends).toHaveLength(2);
    expect(ends[0]).toMatchObject({
      turn_is_formatted: false,
      transcript: 'my order is ready',
      utterance: 'my order is ready',
    });
    expect(ends[0]!.end_of_turn_confidence).toBeGreaterThanOrEqual(0.4);
    expect(ends[0]!.words.every((w: { word_is_final: boolean }) => w.word_is_final)).toBe(true);
    expect(ends[0]!.words.map((w: StreamWord) => [w.start, w.end])).toEqual([
      [100, 300],
      [350, 600],
      [650, 750],
      [800, 1000],
    ]);
    expect(ends[1]).toMatchObject({
      turn_is_formatted: true,
      end_of_turn: true,
      transcript: 'My order is ready.',
      utterance: 'My order is ready.',
    });
    expect(first.indexOf(ends[0]!)).toBe(first.length - 2);
    // Turn 1 stops on "to": the utterance ends at the pause, the turn only at max_turn_silence.
    const second = all.filter((m) => m.turn_order === 1);
    const utterance = second.find((m) => m.utterance !== '' && !m.turn_is_formatted)!;
    expect(utterance).toMatchObject({ end_of_turn: false, utterance: 'i want to', transcript: 'i want to' });
    expect(utterance.end_of_turn_confidence).toBeLessThan(0.4);
    const end = second.find((m) => m.end_of_turn && !m.turn_is_formatted)!;
    expect(second.indexOf(end)).toBeGreaterThan(second.indexOf(utterance));
    expect(end).toMatchObject({ transcript: 'i want to', utterance: '' });
    expect(all.at(-1)).toMatchObject({ turn_order: 1, turn_is_formatted: true, transcript: 'I want to.' });
    expect(all.map((m) => m.turn_order)).toEqual([...all.map((m) => m.turn_order)].sort());
  });

  it('end_of_turn_confidence_threshold 1 (by UpdateConfiguration) leaves only the acoustic end', async () => {
    const messages = await run('speech_model=universal-streaming-english', (client) =>
      client.send({ type: 'UpdateConfiguration', end_of_turn_confidence_threshold: 1 }),
    );
    const second = turns(messages).filter((m) => m.turn_order === 1);
    // Turn 1 started after the update: even a complete-sounding pause waits for max_turn_silence.
    expect(second.filter((m) => m.utterance !== '')).toHaveLength(1);
    expect(second.at(-1)).toMatchObject({ end_of_turn: true, utterance: '' });
  });

  it('min and max turn silence from the query decide when a turn ends', async () => {
    // max_turn_silence no longer than min_turn_silence: every turn ends with its utterance at the first pause.
    const messages = await run(
      'speech_model=universal-streaming-english&min_turn_silence=100&max_turn_silence=100',
    );
    const ends = turns(messages).filter((m) => m.end_of_turn);
    expect(ends.map((m) => [m.turn_order, m.transcript, m.utterance])).toEqual([
      [0, 'my order is ready', 'my order is ready'],
      [1, 'i want to', 'i want to'],
    ]);
  });

  it('ForceEndpoint ends the turn at once with the words so far; Terminate flushes an unfinished turn', async () => {
    const client = await StreamClient.open(
      box.transcription!.streaming.url,
      key,
      'speech_model=universal-streaming-english',
    );
    await client.stream(AUDIO.subarray(0, 600 * 32));
    client.send({ type: 'ForceEndpoint' });
    const forced = await client.next((m) => m.type === 'Turn' && m.end_of_turn);
    expect(forced).toMatchObject({ turn_order: 0, transcript: 'my order', utterance: 'my order' });
    await client.stream(AUDIO.subarray(600 * 32, 2950 * 32));
    client.send({ type: 'Terminate' });
    await client.next('Termination');
    const ends = client.of('Turn').filter((m) => m.end_of_turn);
    expect(ends.map((m) => [m.turn_order, m.transcript])).toEqual([
      [0, 'my order'],
      [1, 'is ready'],
      [2, 'i want'],
    ]);
    expect(client.messages.at(-1)!.type).toBe('Termination');
  });

  it('speaker_labels and language_detection add their fields', async () => {
    const messages = await run(
      'speech_model=universal-streaming-multilingual&speaker_labels=true&language_detection=true',
    );
    const end = turns(messages).find((m) => m.end_of_turn)!;
    expect(end).toMatchObject({ speaker_label: 'UNKNOWN', language_code: 'en', language_confidence: 1 });
    expect(end.words.every((w: { speaker?: string }) => w.speaker === 'UNKNOWN')).toBe(true);
    const partial = turns(messages).find((m) => !m.end_of_turn && m.utterance === '')!;
    expect(partial.language_code).toBeUndefined();
  });
});

describe('Universal-3 Pro (the default model)', () => {
  it('SpeechStarted, a formatted final for a complete sentence, an em-dash partial for an open one', async () => {
    const messages = await run('');
    const types = messages.map((m) => m.type);
    expect(types.filter((t) => t === 'SpeechStarted')).toHaveLength(2);
    const order = messages.filter((m) => m.type === 'SpeechStarted' || m.type === 'Turn');
    expect(order[0]).toMatchObject({ type: 'SpeechStarted', timestamp: 0 });
    expect(order[0]!.confidence).toBeGreaterThan(0);
    const final0 = order[1]!;
    expect(final0).toMatchObject({
      type: 'Turn',
      turn_order: 0,
      end_of_turn: true,
      turn_is_formatted: true,
      end_of_turn_confidence: 1,
      transcript: 'My order is ready.',
      utterance: 'My order is ready.',
    });
    expect(order[2]).toMatchObject({ type: 'SpeechStarted', timestamp: 2500 });
    const partial = order[3]!;
    expect(partial).toMatchObject({
      turn_order: 1,
      end_of_turn: false,
      turn_is_formatted: false,
      end_of_turn_confidence: 0,
      transcript: 'I want to—',
      utterance: '',
    });
    expect(partial.words.every((w: { word_is_final: boolean }) => !w.word_is_final)).toBe(true);
    // No terminal punctuation: the turn ended at max_turn_silence, below the threshold.
    expect(order[4]).toMatchObject({ turn_order: 1, end_of_turn: true, turn_is_formatted: true });
    expect(order[4]!.end_of_turn_confidence).toBeLessThan(0.4);
    expect(order[4]!.transcript).toBe('I want to.');
    expect(order[4]!.utterance).toBe('I want to.');
    expect(text(order[4]!)).toBe('I want to.');
    expect(order).toHaveLength(5);
  });
});
