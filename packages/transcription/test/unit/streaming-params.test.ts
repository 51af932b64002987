import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import { checkStreamingParams, checkUpdateConfiguration } from '../../src/streaming/params.js';
import { connectionQuery, websocketUrl } from '../../src/streaming/query.js';

const base = { speech_model: 'u3-rt-pro', sample_rate: 16000 } as const;

function issues(run: () => unknown): { path: string; message: string }[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return [...(error as ValidationError).issues];
  }
  throw new Error('expected a ValidationError');
}

describe('streaming params', () => {
  it('takes every documented parameter', () => {
    const params = {
      ...base,
      encoding: 'pcm_mulaw',
      format_turns: true,
      end_of_turn_confidence_threshold: 0.7,
      min_turn_silence: 160,
      max_turn_silence: 1280,
      vad_threshold: 0.4,
      keyterms_prompt: ['AssemblyAI', 'Kelly Byrne-Donoghue'],
      prompt: 'Transcribe a support call.',
      inactivity_timeout: 30,
      language_detection: true,
      speaker_labels: true,
      max_speakers: 2,
      redact_pii: true,
      redact_pii_policies: ['person_name', 'phone_number'],
      redact_pii_sub: 'entity_name',
      include_partial_turns: false,
      filter_profanity: true,
      language_codes: ['en', 'es'],
      llm_gateway: { model: 'claude', messages: [{ role: 'user', content: 'hi' }], max_tokens: 100 },
      webhook_url: 'https://example.com/hook',
      webhook_auth_header_name: 'X-Secret',
      webhook_auth_header_value: 's3cret',
    } as const;
    expect(checkStreamingParams(params, false)).toEqual(params);
  });

  it.each([
    [{ sample_rate: 16000 }, 'speech_model', 'is required: the service has no default streaming model'],
    [{ speech_model: 'u3-rt-pro' }, 'sample_rate', 'is required'],
    [{ ...base, sample_rate: 0 }, 'sample_rate', 'more than 0'],
    [{ ...base, sample_rate: 16000.5 }, 'sample_rate', 'int'],
    [{ ...base, sample_rate: 192_001 }, 'sample_rate', 'at most 192000'],
    [{ ...base, encoding: 'opus' }, 'encoding', '"pcm_s16le", "pcm_mulaw"'],
    [{ ...base, inactivity_timeout: 4 }, 'inactivity_timeout', 'at least 5'],
    [{ ...base, inactivity_timeout: 3601 }, 'inactivity_timeout', 'at most 3600'],
    [{ ...base, max_speakers: 11 }, 'max_speakers', 'at most 10'],
    [{ ...base, max_speakers: 0 }, 'max_speakers', 'at least 1'],
    [{ ...base, end_of_turn_confidence_threshold: 1.2 }, 'end_of_turn_confidence_threshold', 'at most 1'],
    [{ ...base, vad_threshold: -0.1 }, 'vad_threshold', 'at least 0'],
    [{ ...base, min_turn_silence: -1 }, 'min_turn_silence', 'at least 0'],
    [{ ...base, keyterms_prompt: ['ok', ''] }, 'keyterms_prompt.1', 'empty'],
    [{ ...base, keyterms: ['AssemblyAI'] }, 'keyterms', 'did you mean keyterms_prompt: ["AssemblyAI"]'],
    [{ ...base, format_turns: 'true' }, 'format_turns', 'expected boolean'],
    [{ ...base, sampleRate: 16000 }, 'sampleRate', 'did you mean "sample_rate"'],
    [{ ...base, format_turn: true }, 'format_turn', 'did you mean "format_turns"'],
    [{ ...base, webhook_auth_header_name: 'Bad Name' }, 'webhook_auth_header_name', 'valid header name'],
  ])('refuses %j, naming %s', (params, path, message) => {
    const found = issues(() => checkStreamingParams(params, false)).find((i) => i.path === path);
    expect(found?.message).toContain(message);
  });

  it.each([8000, 44_100, 192_000])(
    'takes sample_rate %s (real audio spans 8 kHz to 192 kHz)',
    (sample_rate) => {
      expect(checkStreamingParams({ ...base, sample_rate }, false).sample_rate).toBe(sample_rate);
    },
  );

  it('never quotes a webhook secret it refuses', () => {
    const secret = 'line\nbreak-secret-9a1';
    const error = issues(() => checkStreamingParams({ ...base, webhook_auth_header_value: secret }, false));
    expect(JSON.stringify(error)).not.toContain('break-secret-9a1');
  });

  it('sends unknown fields as given with allowUnknownFields, and still checks the known ones', () => {
    const params = { ...base, future_option: { a: 1 } };
    expect(checkStreamingParams(params, true)).toBe(params);
    expect(
      issues(() => checkStreamingParams({ ...params, max_speakers: 99 }, true)).map((i) => i.path),
    ).toEqual(['max_speakers']);
  });

  it('checks updateConfiguration the same way', () => {
    expect(checkUpdateConfiguration({ max_turn_silence: 500, keyterms_prompt: ['x'] }, false)).toEqual({
      max_turn_silence: 500,
      keyterms_prompt: ['x'],
    });
    const found = issues(() => checkUpdateConfiguration({ max_turn_silense: 500 }, false));
    expect(found[0]).toMatchObject({ path: 'max_turn_silense' });
    expect(found[0]!.message).toContain('did you mean "max_turn_silence"');
    // Connection-only parameters cannot change mid-session.
    expect(issues(() => checkUpdateConfiguration({ sample_rate: 8000 }, false))[0]!.path).toBe('sample_rate');
  });
});

describe('connection query', () => {
  it('encodes booleans as true/false, lists and objects as JSON, and leaves out unset values', () => {
    const query = connectionQuery({
      ...base,
      format_turns: false,
      speaker_labels: true,
      keyterms_prompt: ['a b', 'c&d'],
      llm_gateway: { model: 'm' },
      prompt: undefined,
      agent_context: null,
    });
    expect(Object.fromEntries(query)).toEqual({
      speech_model: 'u3-rt-pro',
      sample_rate: '16000',
      format_turns: 'false',
      speaker_labels: 'true',
      keyterms_prompt: '["a b","c&d"]',
      llm_gateway: '{"model":"m"}',
    });
  });

  it('builds the WebSocket URL from an http(s) or ws(s) base', () => {
    const q = new URLSearchParams({ sample_rate: '16000' });
    expect(websocketUrl('https://streaming.assemblyai.com', q)).toBe(
      'wss://streaming.assemblyai.com/v3/ws?sample_rate=16000',
    );
    expect(websocketUrl('http://127.0.0.1:8080/', q)).toBe('ws://127.0.0.1:8080/v3/ws?sample_rate=16000');
    expect(websocketUrl('wss://proxy.example/aai/v3/ws', q)).toBe(
      'wss://proxy.example/aai/v3/ws?sample_rate=16000',
    );
  });
});
