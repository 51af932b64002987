import { describe, expect, it } from 'vitest';
import type { TranscriptRecord } from '../../src/transcription/model/transcripts.js';
import { presentTranscript } from '../../src/transcription/routes/present.js';

describe('presentTranscript echoes parameters, never over the reply fields', () => {
  it('a body naming id, status or error does not replace them', () => {
    const record = {
      id: 'real-id',
      key: 'k',
      seq: 1,
      params: {
        audio_url: 'https://x/a.wav',
        speech_models: ['universal-2'],
        id: 'spoofed',
        status: 'completed',
        error: 'fake',
      },
      status: 'queued',
      created: '2026-11-26T00:00:00.000000',
      completed: null,
      error: null,
      throttled: false,
      upload_id: null,
      result: null,
      webhook_status_code: null,
      speech_model_used: null,
      deleted: false,
    } as unknown as TranscriptRecord;
    const reply = presentTranscript(record);
    expect(reply.id).toBe('real-id');
    expect(reply.status).toBe('queued');
    expect(reply).not.toHaveProperty('error');
  });
});
