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

  it('keeps a call this tab started before its first list arrived (the list was read before the call)', () => {
    const started = reducer(initialState, {
      type: 'started',
      call: { ...call('mine'), createdAt: '2026-11-26T00:00:05Z' },
    });
    const listed = reducer(started, { type: 'calls', calls: [call('old', 'done')] });
    expect(listed.calls.map((c) => c.id)).toEqual(['mine', 'old']);
    expect(listed.selectedCallId).toBe('mine');
    // A call the list no longer holds (past retention) and older than it goes.
    const kept = reducer(listed, { type: 'calls', calls: [{ ...call('mine'), status: 'done' }] });
    expect(kept.calls.map((c) => c.id)).toEqual(['mine']);
  });

  it("opens the newest call on the first load only: a reload after a reconnect opens no other tab's call", () => {
    const empty = reducer(initialState, { type: 'calls', calls: [] });
    expect(empty.selectedCallId).toBeNull();
    const reloaded = reducer(empty, { type: 'calls', calls: [call('theirs')] });
    expect(reloaded.calls.map((c) => c.id)).toEqual(['theirs']);
    expect(reloaded.selectedCallId).toBeNull();
    expect(reducer(initialState, { type: 'calls', calls: [call('a'), call('b')] }).selectedCallId).toBe('a');
  });
});
