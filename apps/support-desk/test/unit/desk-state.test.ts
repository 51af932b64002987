import { describe, expect, it } from 'vitest';
import type { CallView } from '../../src/shared/api.js';
import { initialState, reducer } from '../../src/web/state.js';

const call = (id: string, status: CallView['status'] = 'uploading'): CallView => ({
  id,
  name: id,
  source: 'upload',
  status,
  progress: 0,
  createdAt: '2026-11-26T00:00:00Z',
  transcriptId: null,
  error: null,
  completedBy: null,
  overall: null,
  summary: null,
});

describe('which call a tab shows', () => {
  const reading = reducer(reducer(initialState, { type: 'calls', calls: [call('old', 'done')] }), {
    type: 'select',
    id: 'old',
  });

  it("lists another tab's new call without opening it", () => {
    const next = reducer(reading, { type: 'call', call: call('theirs') });
    expect(next.calls.map((c) => c.id)).toEqual(['theirs', 'old']);
    expect(next.selectedCallId).toBe('old');
  });

  it('opens a call this tab started, keeping a later status its events brought first', () => {
    const evented = reducer(reading, { type: 'call', call: call('mine', 'transcribing') });
    const started = reducer(evented, { type: 'started', call: call('mine', 'uploading') });
    expect(started.selectedCallId).toBe('mine');
    expect(started.calls.find((c) => c.id === 'mine')?.status).toBe('transcribing');
    const fresh = reducer(reading, { type: 'started', call: call('new') });
    expect(fresh.calls.map((c) => c.id)).toEqual(['new', 'old']);
    expect(fresh.selectedCallId).toBe('new');
  });
});
