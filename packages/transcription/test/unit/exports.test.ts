import { ERROR_CLASSES } from '@x/core';
import { describe, expect, it } from 'vitest';
import { errorDrift, schemaNames } from '../../../../exports.shared.js';
import * as transcription from '../../src/index.js';
import * as streaming from '../../src/streaming/index.js';

const STREAMING_ERRORS = [
  'StreamingAudioError',
  'StreamingAuthenticationError',
  'StreamingConcurrencyError',
  'StreamingError',
  'StreamingInvalidMessageError',
  'StreamingServerError',
  'StreamingSessionExpiredError',
];
const NO_DRIFT = { missing: [], notCore: [], unlisted: [], ownMissing: [] };

describe.each([
  {
    entry: '@x/transcription',
    exports: transcription as Record<string, unknown>,
    own: ['TranscriptError', 'TranscriptWaitTimeoutError', ...STREAMING_ERRORS],
  },
  {
    entry: '@x/transcription/streaming',
    exports: streaming as Record<string, unknown>,
    own: STREAMING_ERRORS,
  },
])('$entry', ({ exports, own }) => {
  it("re-exports every error class of core's ERROR_CLASSES, as core's own classes, beside its own", () => {
    expect(errorDrift(exports, ERROR_CLASSES, own)).toEqual(NO_DRIFT);
  });

  it('exports zod schemas only as <name>Schema', () => {
    const schemas = schemaNames(exports);
    expect(schemas.length).toBeGreaterThan(0);
    expect(schemas.filter((name) => !name.endsWith('Schema'))).toEqual([]);
  });
});

it('the schemas both entries export are the same objects under the same names', () => {
  const shared = schemaNames(streaming).filter((name) => name in transcription);
  expect(shared).toEqual(['streamingTemporaryTokenSchema', 'streamingTokenParamsSchema']);
  for (const name of shared) {
    expect((transcription as Record<string, unknown>)[name]).toBe(
      (streaming as Record<string, unknown>)[name],
    );
  }
});
