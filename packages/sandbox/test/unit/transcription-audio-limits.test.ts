import { describe, expect, it } from 'vitest';
import { parseSoxInfo } from '../../src/transcription/engine/index.js';
import { audioRefusal, MIN_BYTES_PER_SECOND } from '../../src/transcription/model/audio-limits.js';

describe('parseSoxInfo', () => {
  it('reads rate, channels and the sample count of `sox --i`', () => {
    const text = `\nInput File     : 'a.au'\nChannels       : 2\nSample Rate    : 8000\nPrecision      : 8-bit\nDuration       : 00:33:20.00 = 16000000 samples ~ 150000 CDDA sectors\n`;
    expect(parseSoxInfo(text)).toEqual({ sampleRate: 8000, channels: 2, seconds: 2000 });
  });
  it('a duration sox does not know stays unknown; output without a rate is no header', () => {
    expect(parseSoxInfo('Channels : 1\nSample Rate : 16000\nDuration : unknown\n')).toEqual({
      sampleRate: 16000,
      channels: 1,
      seconds: undefined,
    });
    expect(parseSoxInfo('sox FAIL formats: no handler')).toBeUndefined();
  });
});

describe('audioRefusal', () => {
  const ok = { sampleRate: 16_000, channels: 1, seconds: 10 };
  it('accepts real audio and anything whose header could not be read', () => {
    expect(audioRefusal(ok, 320_044, 36_000)).toBeNull();
    expect(audioRefusal(undefined, 10, 36_000)).toBeNull();
    expect(audioRefusal({ ...ok, seconds: undefined }, 10, 36_000)).toBeNull();
  });
  it('refuses, in this order: over the limit, a rate below 8 kHz, no channels, more seconds than bytes allow', () => {
    expect(audioRefusal({ sampleRate: 1, channels: 1, seconds: 2000 }, 2044, 600)).toMatch(
      /^Audio duration of 2000/,
    );
    expect(audioRefusal({ ...ok, sampleRate: 7999 }, 1e6, 36_000)).toMatch(/sample rate of 7999 Hz/);
    expect(audioRefusal({ ...ok, sampleRate: Number.NaN }, 1e6, 36_000)).toMatch(/sample rate of NaN Hz/);
    expect(audioRefusal({ ...ok, channels: 0 }, 1e6, 36_000)).toMatch(/declares no channels/);
    expect(audioRefusal(ok, 10 * MIN_BYTES_PER_SECOND, 36_000)).toBeNull();
    expect(audioRefusal(ok, 10 * MIN_BYTES_PER_SECOND - 1, 36_000)).toMatch(/appears to be corrupt/);
  });
});
