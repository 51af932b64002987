/**
 * The streaming emulator's faults, seen from raw `ws` clients: a dropped session (1006, no close frame), a
 * stalled one (socket open, nothing read or answered until resumed, other sessions served meanwhile), refused
 * connects (the fault's code and `Error` frame), `reset()` (3005), the live session list and the counters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { waitFor } from '../helpers/realtime.js';
import { ScriptedRecognizers, StreamClient, silence } from '../helpers/streaming.js';

let box: Sandbox<false>;
let streaming: NonNullable<Sandbox['transcription']>['streaming'];
let key: string;
const recognizers = new ScriptedRecognizers([]);

beforeAll(async () => {
  box = await startSandbox({
    store: false,
    transcription: { streaming: { recognizer: recognizers.factory, newSessionsPerMinute: false } },
  });
  streaming = box.transcription!.streaming;
  key = box.transcription!.apiKey;
});

afterAll(async () => {
  await box?.close();
});

const open = () => StreamClient.open(streaming.url, key);

describe('faults', () => {
  it('dropSessions(id) destroys that socket without a close frame; the others go on', async () => {
    const a = await open();
    const b = await open();
    const id = a.messages[0]!.id as string;
    expect(streaming.sessions().map((s) => s.id)).toContain(id);
    expect(streaming.dropSessions(id)).toBe(1);
    expect((await a.closed).code).toBe(1006);
    expect(streaming.sessions().map((s) => s.id)).not.toContain(id);
    b.send({ type: 'Terminate' });
    await b.next('Termination');
    expect((await b.closed).code).toBe(1000);
  });

  it('dropSessions() drops every session', async () => {
    const clients = [await open(), await open(), await open()];
    expect(streaming.dropSessions()).toBe(3);
    for (const c of clients) expect((await c.closed).code).toBe(1006);
    expect(streaming.sessions()).toEqual([]);
    expect(streaming.dropSessions('no-such-id')).toBe(0);
  });

  it('a stalled session reads and answers nothing until resumed; another session is served meanwhile', async () => {
    const stalled = await open();
    const id = stalled.messages[0]!.id as string;
    const resume = streaming.stallSessions(id);
    expect(streaming.sessions().find((s) => s.id === id)?.stalled).toBe(true);
    stalled.sendAudio(silence(100));
    stalled.send({ type: 'Terminate' });
    const other = await open();
    other.send({ type: 'Terminate' });
    await other.next('Termination');
    expect((await other.closed).code).toBe(1000);
    // The other session's whole round trip happened after the stalled one's Terminate was sent.
    expect(stalled.of('Termination')).toEqual([]);
    expect(stalled.ws.readyState).toBe(stalled.ws.OPEN);
    expect(streaming.sessions().find((s) => s.id === id)?.audio_ms).toBe(0);
    resume();
    const termination = await stalled.next('Termination');
    expect(termination.audio_duration_seconds).toBe(0);
    expect((await stalled.closed).code).toBe(1000);
  });

  it('refuseSessions closes the next connects with the code asked for, then serves again', async () => {
    streaming.refuseSessions({ times: 2, code: 3005 });
    streaming.refuseSessions();
    streaming.refuseSessions({ code: 1008 });
    const refused = [0, 1, 2, 3].map(
      () => new StreamClient(`${streaming.url}?sample_rate=16000`, { headers: { Authorization: key } }),
    );
    const codes: number[] = [];
    for (const client of refused) {
      const closed = await client.closed;
      codes.push(closed.code);
      expect(client.of('Error')).toEqual([{ type: 'Error', error_code: closed.code, error: closed.reason }]);
    }
    expect(codes.sort()).toEqual([1008, 3005, 3005, 3009]);
    expect(refused.map((c) => c.of('Error')[0]!.error).sort()).toEqual([
      'Session Cancelled: An error occurred',
      'Session Cancelled: An error occurred',
      'Unauthorized Connection: Account temporarily disabled',
      'Unauthorized Connection: Too many concurrent sessions',
    ]);
    const served = await open();
    served.close();
    expect(() => streaming.refuseSessions({ code: 4000 as never })).toThrow(RangeError);
  });

  it('reset() closes live sessions with 3005 and forgets tokens', async () => {
    const res = await fetch(`${box.url}/v3/token?expires_in_seconds=60`, { headers: { Authorization: key } });
    const { token } = await res.json();
    const client = await open();
    await box.transcription!.reset();
    expect((await client.closed).code).toBe(3005);
    expect(client.of('Error')[0]).toEqual({
      type: 'Error',
      error_code: 3005,
      error: 'Session Cancelled: the sandbox was reset',
    });
    const late = new StreamClient(`${streaming.url}?token=${token}`);
    expect((await late.closed).code).toBe(1008);
  });

  it('stats count sessions opened and connects refused by code', async () => {
    streaming.resetStats();
    const a = await open();
    const refused = new StreamClient(streaming.url);
    await refused.closed;
    expect(streaming.stats()).toEqual({ opened: 1, refused: { 1008: 1 }, terminations: 0, open: 1 });
    a.close();
    await waitFor(() => streaming.stats().open === 0);
  });

  it('every recogniser started was closed', async () => {
    await waitFor(() => streaming.sessions().length === 0);
    await waitFor(() => recognizers.closed === recognizers.started);
    expect(recognizers.started).toBeGreaterThan(5);
  });
});
