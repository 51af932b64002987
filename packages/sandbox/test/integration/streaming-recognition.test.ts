/**
 * Real recognition through `/v3/ws`: flite speech (16 kHz voices) streamed at real-time pace in 100 ms frames
 * from a raw `ws` client, recognised by the PocketSphinx recogniser process of each session. Checked: the
 * final turns say what was spoken (WER ≤ 0.15), partials keep their finals as a never-revised prefix, the
 * 8 kHz μ-law path (decode and resample) recognises too, and no recogniser process outlives its session.
 */
import { readdir, readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox, synthesizeSpeech, wordErrorRate } from '../../src/index.js';
import { waitFor } from '../helpers/realtime.js';
import { concat, type Message, StreamClient, silence, wavPcm, wholeChunks } from '../helpers/streaming.js';

const FIRST = 'my order number is four five six';
const SECOND = 'i would like a refund please';
/** What format_text makes of them: the number as digits. */
const SPOKEN = 'my order number is 456 i would like a refund please';

let box: Sandbox<false>;
let speech: Uint8Array;

beforeAll(async () => {
  box = await startSandbox({
    store: false,
    transcription: { rateLimit: false, streaming: { newSessionsPerMinute: false } },
  });
  const say = async (text: string) =>
    wavPcm(await readFile(await synthesizeSpeech(text, { voice: 'kal16' })));
  speech = wholeChunks(concat(await say(FIRST), silence(1500), await say(SECOND), silence(1500)));
}, 60_000);

afterAll(async () => {
  await box?.close();
});

async function session(
  query: string,
  pcm: Uint8Array,
  rate = 16_000,
  bytesPerSample = 2,
): Promise<Message[]> {
  const client = await StreamClient.open(box.transcription!.streaming.url, box.transcription!.apiKey, query);
  const chunk = (rate * bytesPerSample) / 10;
  for (let at = 0; at < pcm.length; at += chunk) {
    client.sendAudio(pcm.subarray(at, at + chunk));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  client.send({ type: 'Terminate' });
  await client.next('Termination', 30_000);
  expect((await client.closed).code).toBe(1000);
  return client.messages;
}

/** Child processes of this test process (the recognisers run `python3 -c …`), from /proc. */
async function pythonChildren(): Promise<number> {
  let count = 0;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && stat.includes('python')) count += 1;
    } catch {
      // gone meanwhile
    }
  }
  return count;
}

const finalText = (messages: Message[], formatted: boolean) =>
  messages
    .filter((m) => m.type === 'Turn' && m.end_of_turn && m.turn_is_formatted === formatted)
    .map((m) => m.transcript)
    .join(' ');

describe('real recognition', () => {
  it('Universal-Streaming: partials, then one final and one formatted final per sentence', async () => {
    const messages = await session('speech_model=universal-streaming-english&format_turns=true', speech);
    const turns = messages.filter((m) => m.type === 'Turn');
    expect(turns.filter((m) => !m.end_of_turn).length).toBeGreaterThan(0);
    expect(turns.filter((m) => m.end_of_turn).map((m) => [m.turn_order, m.turn_is_formatted])).toEqual([
      [0, false],
      [0, true],
      [1, false],
      [1, true],
    ]);
    expect(wordErrorRate(SPOKEN, finalText(messages, true))).toBeLessThanOrEqual(0.15);
    expect(
      wordErrorRate(SPOKEN.replace('456', 'four five six'), finalText(messages, false)),
    ).toBeLessThanOrEqual(0.15);
    // Per turn, a word once final keeps its place and text in every later message of the turn.
    for (const order of [0, 1]) {
      let finals: string[] = [];
      for (const m of turns.filter((t) => t.turn_order === order && !t.turn_is_formatted)) {
        const words = m.words as { text: string; word_is_final: boolean }[];
        const prefix = words.slice(0, words.findIndex((w) => !w.word_is_final) >>> 0);
        expect(prefix.slice(0, finals.length).map((w) => w.text)).toEqual(finals);
        expect(m.transcript).toBe(prefix.map((w) => w.text).join(' '));
        finals = prefix.map((w) => w.text);
      }
    }
  }, 60_000);

  it('Universal-3 Pro (the default model): SpeechStarted before each turn, formatted finals', async () => {
    const messages = await session('', speech);
    const turns = messages.filter((m) => m.type === 'Turn');
    const finals = turns.filter((m) => m.end_of_turn);
    expect(finals.length).toBeGreaterThanOrEqual(2);
    expect(finals.every((m) => m.turn_is_formatted && m.utterance === m.transcript)).toBe(true);
    // Each turn's first message comes after a SpeechStarted of its own.
    for (const order of new Set(turns.map((m) => m.turn_order))) {
      const first = messages.findIndex((m) => m.type === 'Turn' && m.turn_order === order);
      const previous = messages.findIndex(
        (m) => m.type === 'Turn' && m.turn_order === order - 1 && m.end_of_turn,
      );
      const started = messages.slice(previous + 1, first).filter((m) => m.type === 'SpeechStarted');
      expect(started).toHaveLength(1);
    }
    expect(wordErrorRate(SPOKEN, finalText(messages, true))).toBeLessThanOrEqual(0.15);
  }, 60_000);

  it('8 kHz μ-law is decoded and resampled for the recogniser', async () => {
    const query = 'sample_rate=8000&encoding=pcm_mulaw&speech_model=universal-streaming-english';
    const messages = await session(query, toMulaw8k(speech), 8000, 1);
    const unformatted = SPOKEN.replace('456', 'four five six');
    expect(wordErrorRate(unformatted, finalText(messages, false))).toBeLessThanOrEqual(0.15);
  }, 60_000);

  it('no recogniser process outlives its session', async () => {
    await waitFor(() => box.transcription!.streaming.sessions().length === 0);
    const deadline = Date.now() + 5000;
    while ((await pythonChildren()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await pythonChildren()).toBe(0);
  });
});

/** 16 kHz s16le to 8 kHz G.711 μ-law (every other sample; the standard compression), to test that path. */
function toMulaw8k(pcm: Uint8Array): Uint8Array {
  const samples = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.byteLength / 2);
  const out = new Uint8Array(Math.floor(samples.length / 2));
  for (let i = 0; i < out.length; i++) {
    let s = samples[i * 2]!;
    const sign = s < 0 ? 0x80 : 0;
    if (s < 0) s = -s;
    s = Math.min(s, 32635) + 0x84;
    let exponent = 7;
    for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
    const mantissa = (s >> (exponent + 3)) & 0x0f;
    out[i] = ~(sign | (exponent << 4) | mantissa) & 0xff;
  }
  return out;
}
