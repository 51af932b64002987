import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ValidationError } from '../../src/errors.js';
import { closest, parseInput } from '../../src/validation.js';

const Params = z.strictObject({
  audio_url: z.string(),
  speech_models: z.optional(z.array(z.string())),
  webhook: z.optional(z.strictObject({ url: z.string(), auth_header_name: z.optional(z.string()) })),
  word_boost: z.optional(z.array(z.strictObject({ word: z.string(), weight: z.number() }))),
});

const ADVICE = 'the service ignores fields it does not know; pass allowUnknownFields: true to send them';

function failure(run: () => unknown): ValidationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  return expect.unreachable('expected a ValidationError');
}

describe('parseInput and unknown fields', () => {
  it('names an unknown field by its path with the snake_case field it meant', () => {
    const error = failure(() =>
      parseInput(Params, { audio_url: 'https://a.test/x.mp3', speechModels: ['best'] }, 'transcripts.create'),
    );
    expect(error.issues).toEqual([
      { path: 'speechModels', message: 'unknown field (did you mean "speech_models"?)' },
    ]);
    expect(error.message).toBe(
      'Invalid transcripts.create: speechModels: unknown field (did you mean "speech_models"?)',
    );
  });

  it('finds known fields in nested objects, arrays of objects and optional wrappers', () => {
    const error = failure(() =>
      parseInput(
        Params,
        {
          audio_url: 'x',
          webhook: { url: 'u', auth_header_nmae: 'X-Key' },
          word_boost: [
            { word: 'a', weight: 1 },
            { word: 'b', wieght: 2, weight: 2 },
          ],
        },
        'transcripts.create',
      ),
    );
    expect(error.issues).toEqual([
      { path: 'webhook.auth_header_nmae', message: 'unknown field (did you mean "auth_header_name"?)' },
      { path: 'word_boost.1.wieght', message: 'unknown field (did you mean "weight"?)' },
    ]);
  });

  it('appends the advice once, to the last unknown field, and describes other issues as before', () => {
    const error = failure(() =>
      parseInput(
        Params,
        { audio_url: 1, speechModels: [], webhook: { url: 'u', zzz_qqq: 1 } },
        'transcripts.create',
        { unknownFieldAdvice: ADVICE },
      ),
    );
    expect(error.issues.map((i) => i.path).sort()).toEqual(['audio_url', 'speechModels', 'webhook.zzz_qqq']);
    expect(error.issues.find((i) => i.path === 'audio_url')!.message).toBe('expected string');
    const unknown = error.issues.filter((i) => i.message.startsWith('unknown field'));
    expect(unknown.filter((i) => i.message.includes(ADVICE))).toHaveLength(1);
    expect(unknown.at(-1)!.message).toMatch(new RegExp(`; ${ADVICE}$`));
    expect(error.message.split(ADVICE)).toHaveLength(2);
    // No close field: no suggestion, only the advice.
    expect(error.issues.find((i) => i.path === 'webhook.zzz_qqq')!.message).toMatch(/^unknown field(; |$)/);
  });

  it('without advice, unknown fields carry only the suggestion', () => {
    const error = failure(() =>
      parseInput(Params, { audio_url: 'x', speechModels: [] }, 'transcripts.create'),
    );
    expect(error.issues[0]!.message).toBe('unknown field (did you mean "speech_models"?)');
  });

  it('allowUnknownFields returns the input itself, unknown keys kept', () => {
    const input = { audio_url: 'x', speechModels: ['best'], webhook: { url: 'u', secret_new_field: true } };
    const parsed = parseInput(Params, input, 'transcripts.create', {
      allowUnknownFields: true,
      unknownFieldAdvice: ADVICE,
    });
    expect(parsed).toBe(input);
    expect(parsed).toHaveProperty('speechModels', ['best']);
    expect(parsed.webhook).toHaveProperty('secret_new_field', true);
    // Without the option zod's copy would drop them; a valid input is still zod's result.
    expect(
      parseInput(Params, { audio_url: 'x' }, 'transcripts.create', { allowUnknownFields: true }),
    ).toEqual({
      audio_url: 'x',
    });
  });

  it('allowUnknownFields still throws for every other issue, without the unknown ones', () => {
    const error = failure(() =>
      parseInput(
        Params,
        { audio_url: 3, speechModels: [], word_boost: [{ word: 'a' }] },
        'transcripts.create',
        {
          allowUnknownFields: true,
          unknownFieldAdvice: ADVICE,
        },
      ),
    );
    expect(error.issues).toEqual([
      { path: 'audio_url', message: 'expected string' },
      { path: 'word_boost.0.weight', message: 'expected number' },
    ]);
    expect(error.message).not.toContain(ADVICE);
  });

  it('names the call lazily: a function for `what` runs only on failure', () => {
    let named = 0;
    const what = () => {
      named++;
      return 'transcripts.create';
    };
    parseInput(Params, { audio_url: 'x' }, what);
    expect(named).toBe(0);
    expect(failure(() => parseInput(Params, {}, what)).message).toMatch(/^Invalid transcripts\.create: /);
    expect(named).toBe(1);
  });
});

describe('closest', () => {
  it('prefers the snake_case form, then the nearest name within about a third of its length', () => {
    expect(closest('speechModels', ['speech_models', 'speech_model'])).toBe('speech_models');
    expect(closest('regular-price', ['regular_price'])).toBe('regular_price');
    expect(closest('postocde', ['postcode', 'country'])).toBe('postcode');
    expect(closest('zzz_qqq', ['postcode', 'country'])).toBeUndefined();
    expect(closest('anything', [])).toBeUndefined();
  });
});
