/**
 * The live-call routes over HTTP, against the sandbox's token route, store and realtime: what a tab may
 * relay, what the others hear, bounds, and exactly one analysis per call. Turns are posted by hand here;
 * live-call.test.ts streams real speech.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveCallStart, LiveTurnInput } from '../../src/shared/api.js';
import { type Desk, startDesk } from '../helpers/desk.js';
import { listen } from '../helpers/listener.js';

let desk: Desk;
let small: Desk;
beforeAll(async () => {
  [desk, small] = await Promise.all([startDesk({ staticDir: undefined }), startDeskSmall()]);
});
afterAll(() => Promise.all([desk?.close(), small?.close()]));

function startDeskSmall(): Promise<Desk> {
  return startDesk({
    staticDir: undefined,
    liveCalls: { maxOpen: 1, startsPerMinute: 2, tokensPerCall: 2, relaysPerSecond: 2, abandonAfterMs: 1500 },
  });
}

const post = (d: Desk, path: string, body: unknown, key?: string) =>
  fetch(`${d.server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(key ? { 'X-Live-Call-Key': key } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

async function start(d: Desk = desk): Promise<LiveCallStart> {
  const res = await post(d, '/api/live-calls', {});
  expect(res.status).toBe(201);
  return res.json();
}

const turn = (
  turn_order: number,
  text: string,
  end_of_turn = false,
  turn_is_formatted = false,
): LiveTurnInput => ({
  turn_order,
  end_of_turn,
  turn_is_formatted,
  text,
});

const waitForStatus = (d: Desk, id: string, status: string) =>
  expect
    .poll(async () => (await (await fetch(`${d.server.url}/api/calls/${id}`)).json()).status, {
      timeout: 15_000,
    })
    .toBe(status);

describe('live calls over HTTP', () => {
  it('gives the page a token, the streaming socket and the call, never the API key', async () => {
    const config = await (await fetch(`${desk.server.url}/api/config`)).json();
    const wsBase = desk.sandbox.url.replace(/^http/, 'ws');
    expect(config.live).toEqual({ streamingUrl: wsBase, speechModel: 'universal-streaming-english' });
    const res = await post(desk, '/api/live-calls', { name: 'Call from the front desk' });
    const text = await res.text();
    expect(res.status).toBe(201);
    expect(text).not.toContain(desk.config.transcription.apiKey);
    const started: LiveCallStart = JSON.parse(text);
    expect(started).toMatchObject({
      call: { name: 'Call from the front desk', source: 'live', status: 'live' },
      expires_in_seconds: 60,
      max_session_duration_seconds: 1800,
      streaming: {
        url: wsBase,
        params: { speech_model: 'universal-streaming-english', sample_rate: 16000, format_turns: true },
      },
    });
    expect(started.token.length).toBeGreaterThan(10);
    expect(started.key).toMatch(/^[\w-]{32}$/);
    // A fresh token for a reconnection, with the call's key only.
    const again = await post(desk, `/api/live-calls/${started.call.id}/token`, {}, started.key);
    expect(again.status).toBe(200);
    expect((await again.json()).token).not.toBe(started.token);
    expect((await post(desk, `/api/live-calls/${started.call.id}/token`, {})).status).toBe(403);
    const { calls } = await (await fetch(`${desk.server.url}/api/calls`)).json();
    expect(calls[0]).toMatchObject({ id: started.call.id, status: 'live' });
    await post(desk, `/api/live-calls/${started.call.id}/end`, {}, started.key);
  });

  it('keeps each final turn once, relays what changed to the other tabs, and shows a late tab the transcript', async () => {
    const tab = await listen(desk);
    const { call, key } = await start();
    const relay = (turns: LiveTurnInput[]) => post(desk, `/api/live-calls/${call.id}/turns`, { turns }, key);
    const changed = async (turns: LiveTurnInput[]) => (await (await relay(turns)).json()).changed;
    expect(await changed([turn(0, 'i am'), turn(0, 'i am calling')])).toBe(2);
    expect(await changed([turn(0, 'i am calling about order ninety', true)])).toBe(1);
    expect(await changed([turn(0, 'i am calling about order ninety', true), turn(0, 'late partial')])).toBe(
      0,
    );
    expect(await changed([turn(0, 'I am calling about order 90.', true, true)])).toBe(1);
    expect(await changed([turn(0, 'i am calling about order ninety', true), turn(1, 'it is')])).toBe(1);

    const detail = await (await fetch(`${desk.server.url}/api/calls/${call.id}`)).json();
    expect(detail.live).toEqual({
      finals: [turn(0, 'I am calling about order 90.', true, true)],
      partial: turn(1, 'it is'),
    });
    const heard = () => tab.of('live-turn').filter((e) => e.callId === call.id);
    await expect.poll(() => heard().at(-1)?.text).toBe('it is');
    const finals = heard().filter((e) => e.end_of_turn);
    expect(finals.map((e) => [e.turn_order, e.turn_is_formatted])).toEqual([
      [0, false],
      [0, true],
    ]);
    await post(desk, `/api/live-calls/${call.id}/end`, {}, key);
    tab.close();
  });

  it('analyses a call once however many tabs end it, and refuses its turns afterwards', async () => {
    const tab = await listen(desk);
    const before = (await desk.store.orders.notes.list(90)).data.length;
    const { call, key } = await start();
    const words = 'I am calling about order 90. It arrived late and it is broken.'.split(' ');
    await post(
      desk,
      `/api/live-calls/${call.id}/turns`,
      {
        turns: [
          {
            ...turn(0, words.join(' '), true, true),
            words: words.map((text, i) => ({ text, start: i * 300, end: i * 300 + 250 })),
          },
        ],
      },
      key,
    );
    const ends = await Promise.all(
      [1, 2, 3].map(() =>
        post(
          desk,
          `/api/live-calls/${call.id}/end`,
          { session_id: 'session-abc', audio_duration_seconds: 4.2 },
          key,
        ),
      ),
    );
    expect(ends.map((r) => r.status)).toEqual([202, 202, 202]);
    await waitForStatus(desk, call.id, 'done');
    const notes = (await desk.store.orders.notes.list(90)).data;
    expect(notes.length - before).toBe(1);
    expect(notes.find((n) => n.note.includes('transcript session-abc'))?.note).toContain(
      'Overall sentiment: NEGATIVE',
    );
    await expect.poll(() => tab.of('call-analyzed').filter((c) => c.id === call.id).length).toBe(1);
    const late = await post(desk, `/api/live-calls/${call.id}/turns`, { turns: [turn(1, 'more')] }, key);
    expect(late.status).toBe(409);
    expect((await late.json()).error.code).toBe('not_live');
    tab.close();
  });

  it('ends a call with nothing said as a failed call, not an analysis', async () => {
    const { call, key } = await start();
    await post(desk, `/api/live-calls/${call.id}/turns`, { turns: [turn(0, 'hel')] }, key);
    const res = await post(desk, `/api/live-calls/${call.id}/end`, {}, key);
    expect((await res.json()).call.status).toBe('error');
  });

  it('answers bad input with errors naming the field, a wrong key with 403, an unknown call with 404', async () => {
    const { call, key } = await start();
    const path = `/api/live-calls/${call.id}/turns`;
    const bad = await post(
      desk,
      path,
      {
        turns: [{ turn_order: -1, end_of_turn: 'yes', turn_is_formatted: false, text: 'x', extra: 1 }],
        socket_id: 'x',
      },
      key,
    );
    expect(bad.status).toBe(400);
    const { error } = await bad.json();
    expect(error.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      'socket_id',
      'turns.0',
      'turns.0.end_of_turn',
      'turns.0.turn_order',
    ]);
    expect((await post(desk, path, { turns: [] }, key)).status).toBe(400);
    expect((await post(desk, path, '{not json', key)).status).toBe(400);
    expect((await post(desk, path, { turns: [turn(0, 'x'.repeat(5001))] }, key)).status).toBe(400);
    expect((await post(desk, path, { turns: [turn(0, 'hi')] }, 'A'.repeat(32))).status).toBe(403);
    expect((await post(desk, path, { turns: [turn(0, 'hi')] })).status).toBe(403);
    const unknown = await post(
      desk,
      '/api/live-calls/00000000-0000-0000-0000-000000000000/turns',
      { turns: [turn(0, 'a')] },
      key,
    );
    expect(unknown.status).toBe(404);
    const big = await post(desk, path, { turns: [turn(0, 'x')], pad: 'y'.repeat(70_000) }, key);
    expect(big.status).toBe(413);
    expect((await post(desk, '/api/live-calls', { name: 'x'.repeat(201) })).status).toBe(400);
    await post(desk, `/api/live-calls/${call.id}/end`, {}, key);
  });
});

describe('live call limits', () => {
  it('caps calls open at once, starts per minute, tokens per call and relays per second, with Retry-After', async () => {
    const first = await start(small);
    const second = await post(small, '/api/live-calls', {});
    expect(second.status).toBe(429);
    expect((await second.json()).error.code).toBe('too_many_live_calls');
    expect(Number(second.headers.get('Retry-After'))).toBeGreaterThan(0);

    const id = first.call.id;
    expect((await post(small, `/api/live-calls/${id}/token`, {}, first.key)).status).toBe(200);
    const token = await post(small, `/api/live-calls/${id}/token`, {}, first.key);
    expect(token.status).toBe(429);
    expect((await token.json()).error.code).toBe('too_many_tokens');

    const relays = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        post(small, `/api/live-calls/${id}/turns`, { turns: [turn(0, `w${i}`)] }, first.key),
      ),
    );
    const limited = relays.filter((r) => r.status === 429);
    expect(relays.filter((r) => r.status === 200)).toHaveLength(2);
    expect(limited).toHaveLength(2);
    for (const r of limited) expect(Number(r.headers.get('Retry-After'))).toBeGreaterThan(0);

    await post(small, `/api/live-calls/${id}/end`, {}, first.key);
    await start(small).then((c) => post(small, `/api/live-calls/${c.call.id}/end`, {}, c.key));
    const third = await post(small, '/api/live-calls', {});
    expect(third.status).toBe(429);
    expect((await third.json()).error.code).toBe('rate_limited');
  });

  it('ends a call its tab never ended', async () => {
    // A fresh desk: the one above used its starts for this minute.
    const alone = await startDeskSmall();
    try {
      const { call, key } = await start(alone);
      await post(
        alone,
        `/api/live-calls/${call.id}/turns`,
        { turns: [turn(0, 'I am calling about order 91.', true, true)] },
        key,
      );
      await waitForStatus(alone, call.id, 'done');
    } finally {
      await alone.close();
    }
  });
});
