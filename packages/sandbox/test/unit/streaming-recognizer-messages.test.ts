/** The pipe protocol of the streaming recogniser, without a process: frames, bounded lines, messages, words. */
import { describe, expect, it } from 'vitest';
import {
  audioFrames,
  END_FRAME,
  LineReader,
  parseMessage,
  type RawWord,
  toStreamWords,
} from '../../src/transcription/engine/streaming-messages.js';
import { MAX_AUDIO_FRAME_BYTES } from '../../src/transcription/engine/streaming-program.js';

describe('frames', () => {
  it('splits audio into frames of a type byte, a big-endian length and at most MAX_AUDIO_FRAME_BYTES', () => {
    const pcm = new Uint8Array(MAX_AUDIO_FRAME_BYTES * 2 + 6).map((_, i) => i % 251);
    const frames = audioFrames(pcm);
    const payloads: Buffer[] = [];
    for (let offset = 0; offset < frames.length; ) {
      expect(frames[offset]).toBe(0x41);
      const length = frames.readUInt32BE(offset + 1);
      expect(length).toBeLessThanOrEqual(MAX_AUDIO_FRAME_BYTES);
      payloads.push(frames.subarray(offset + 5, offset + 5 + length));
      offset += 5 + length;
    }
    expect(payloads.map((p) => p.length)).toEqual([MAX_AUDIO_FRAME_BYTES, MAX_AUDIO_FRAME_BYTES, 6]);
    expect(Buffer.concat(payloads).equals(Buffer.from(pcm))).toBe(true);
    expect([...END_FRAME]).toEqual([0x45, 0, 0, 0, 0]);
  });

  it('copies the audio, so the caller may reuse its buffer', () => {
    const pcm = new Uint8Array([1, 2, 3, 4]);
    const frames = audioFrames(pcm);
    pcm.fill(0);
    expect([...frames.subarray(5)]).toEqual([1, 2, 3, 4]);
  });
});

describe('LineReader', () => {
  it('joins lines split across chunks and keeps several lines of one chunk apart', () => {
    const reader = new LineReader(100);
    expect(reader.push(Buffer.from('{"a":'))).toEqual([]);
    expect(reader.push(Buffer.from('1}\n{"b"'))).toEqual(['{"a":1}']);
    expect(reader.push(Buffer.from(':2}\n\nx\n'))).toEqual(['{"b":2}', '', 'x']);
  });

  it('gives up on a line longer than its bound, whether or not the newline has come', () => {
    expect(new LineReader(8).push(Buffer.from('123456789\n'))).toBeUndefined();
    const reader = new LineReader(8);
    expect(reader.push(Buffer.from('12345'))).toEqual([]);
    expect(reader.push(Buffer.from('6789'))).toBeUndefined();
    expect(new LineReader(8).push(Buffer.from('12345678\n'))).toEqual(['12345678']);
  });

  it('decodes a UTF-8 character split across chunks', () => {
    const reader = new LineReader(100);
    const bytes = Buffer.from('"é"\n');
    expect(reader.push(bytes.subarray(0, 2))).toEqual([]);
    expect(reader.push(bytes.subarray(2))).toEqual(['"é"']);
  });
});

describe('parseMessage', () => {
  it('reads the four messages the program writes', () => {
    expect(parseMessage('{"type":"ready"}')).toEqual({ type: 'ready' });
    expect(
      parseMessage('{"type":"update","words":[["my",210,480,1.0]],"audioMs":500,"inSpeech":true}'),
    ).toEqual({
      type: 'update',
      words: [['my', 210, 480, 1]],
      audioMs: 500,
      inSpeech: true,
    });
    expect(parseMessage('{"type":"final","words":[],"audioMs":0}')).toEqual({
      type: 'final',
      words: [],
      audioMs: 0,
    });
    expect(parseMessage('{"type":"error","kind":"unavailable","message":"No module"}')).toEqual({
      type: 'error',
      kind: 'unavailable',
      message: 'No module',
    });
  });

  it.for([
    '',
    'Traceback (most recent call last):',
    'null',
    '[]',
    '{"type":"readyy"}',
    '{"type":"update","words":[],"audioMs":-1,"inSpeech":true}',
    '{"type":"update","words":[],"audioMs":1.5,"inSpeech":true}',
    '{"type":"update","words":[],"audioMs":1}',
    '{"type":"update","words":[["my",1,2]],"audioMs":1,"inSpeech":false}',
    '{"type":"final","words":[["my","1",2,0.5]],"audioMs":1}',
    '{"type":"final","words":{},"audioMs":1}',
    '{"type":"error","kind":"other","message":"x"}',
    '{"type":"error","kind":"failed"}',
    '{"type":"update","words":[],"audioMs":1e400,"inSpeech":true}',
  ])('refuses %j', (line) => {
    expect(parseMessage(line)).toBeUndefined();
  });
});

describe('toStreamWords', () => {
  const raw: RawWord[] = [
    ['<s>', 1890, 1990, 1],
    ['the', 1990, 2120, 0.99],
    ['<sil>', 2120, 2200, 0.8],
    ['package(2)', 2200, 2640, 1.0001],
    ['[NOISE]', 2640, 2700, 0.5],
    ['++BREATH++', 2700, 2750, 0.5],
    ['arrived', 2750, 3120, -0.2],
    ['</s>', 3120, 3200, 1],
  ];

  it('keeps the words only, without the alternate-pronunciation suffix, confidence clamped to 0..1', () => {
    expect(toStreamWords(raw, 0, 10_000)).toEqual([
      { text: 'the', start: 1990, end: 2120, confidence: 0.99 },
      { text: 'package', start: 2200, end: 2640, confidence: 1 },
      { text: 'arrived', start: 2750, end: 3120, confidence: 0 },
    ]);
  });

  it('clamps times into the audio the utterance covers, so they never run backwards or ahead', () => {
    expect(toStreamWords(raw, 2100, 3000).map((w) => [w.start, w.end])).toEqual([
      [2100, 2120],
      [2200, 2640],
      [2750, 3000],
    ]);
    expect(toStreamWords([['late', 500, 600, 1]], 0, 400)).toEqual([
      { text: 'late', start: 400, end: 400, confidence: 1 },
    ]);
  });
});
