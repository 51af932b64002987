/**
 * Hostile review of the streaming transcriber (issue 18): a `sample_rate` the params schema takes (a
 * positive integer, no upper bound) but no frame buffer can hold. The transcriber sizes its frame buffer
 * from it in the constructor, so it threw a bare `RangeError: Invalid typed array length: 219902325556`
 * instead of a `ValidationError` naming the field, as every other bad parameter does. (At 1e9 Hz it
 * allocates 200 MB for one 100 ms frame without a word.) Fixed in 1ff1500: the schema bounds it at 192,000 Hz
 * (the docs name no maximum; the emulator takes 8,000–48,000).
 */
import { expect, it } from 'vitest';
import { StreamingTranscriber, ValidationError } from '../../src/streaming/index.js';

it.each([2 ** 40, Number.MAX_SAFE_INTEGER])(
  'sample_rate: %s is a ValidationError naming sample_rate, not a RangeError',
  (sample_rate) => {
    let error: unknown;
    try {
      new StreamingTranscriber(
        { speech_model: 'u3-rt-pro', sample_rate },
        { getToken: () => 'unused-token', baseUrl: 'http://127.0.0.1:1' },
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toContain('sample_rate');
  },
);
