/**
 * A live call over real sockets, without a browser: the page's own controller (`LiveCallSession`) in Node,
 * a flite WAV as the microphone, the sandbox's streaming socket with the desk's temporary tokens, the desk's
 * relay, and a second "tab" (a realtime client on the desk's channel) that follows the transcript.
 */
import { wordErrorRate } from '@x/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CallView, LiveCallStart, LiveTurnEvent, LiveTurnInput } from '../../src/shared/api.js';
import { liveCallApi } from '../../src/web/api.js';
import { LiveCallSession, type LiveStatus } from '../../src/web/live-session.js';
import { type Desk, startDesk } from '../helpers/desk.js';
import { listen } from '../helpers/listener.js';
import { spokenCall, wavMicrophone } from '../helpers/speech.js';

const SENTENCES = [
  'Hello, my name is Jane Smith.',
  'I am calling about order number 88.',
  'The box was damaged and I am very unhappy.',
];

let desk: Desk;
beforeAll(async () => {
  desk = await startDesk({ staticDir: undefined });
});
afterAll(() => desk?.close());

it('streams with a temporary token, relays each final turn once to the other tabs, and analyses the call', async () => {
  const tab = await listen(desk);
  const capturing = await listen(desk);
  const api = liveCallApi(desk.server.url);
  let started: LiveCallStart | undefined;
  const spy = { ...api, start: async () => (started = await api.start()) };
  const microphone = wavMicrophone(await spokenCall(SENTENCES));
  const seen = {
    statuses: [] as LiveStatus[],
    turns: [] as LiveTurnInput[],
    calls: [] as CallView[],
    errors: [] as unknown[],
  };
  const session = new LiveCallSession(
    spy,
    microphone,
    {
      status: (s) => seen.statuses.push(s),
      call: (c) => seen.calls.push(c),
      turn: (_id, t) => seen.turns.push(t),
      error: (e) => seen.errors.push(e),
    },
    () => capturing.socketId,
  );
  await session.start();
  expect(seen.errors).toEqual([]);
  expect(seen.statuses).toEqual(['opening', 'connecting', 'listening']);

  // The page was given a token and the sandbox's socket, never the key.
  expect(JSON.stringify(started)).not.toContain(desk.config.transcription.apiKey);
  expect(started!.streaming.url).toBe(desk.sandbox.url.replace(/^http/, 'ws'));
  const id = started!.call.id;
  expect(started!.call.status).toBe('live');

  await microphone.done;
  // Wait until the last sentence's turn is final, then hang up.
  const finalText = () =>
    seen.turns
      .filter((t) => t.end_of_turn && t.turn_is_formatted)
      .map((t) => t.text)
      .join(' ');
  await expect
    .poll(() => wordErrorRate(SENTENCES.join(' '), finalText()), { timeout: 20_000 })
    .toBeLessThanOrEqual(0.15);
  await session.stop();
  expect(seen.errors).toEqual([]);
  expect(seen.statuses.slice(-2)).toEqual(['ending', 'ended']);

  // Partials came before each final of their turn.
  const firstFinal = seen.turns.findIndex((t) => t.end_of_turn);
  expect(seen.turns.slice(0, firstFinal).some((t) => !t.end_of_turn && t.text !== '')).toBe(true);

  // The other tab heard every final turn, once per copy, in order, and partials only before their final.
  await expect
    .poll(() => tab.of('call-analyzed').filter((c) => c.id === id).length, { timeout: 30_000 })
    .toBe(1);
  const relayed: LiveTurnEvent[] = tab.of('live-turn').filter((e) => e.callId === id);
  const finals = relayed.filter((e) => e.end_of_turn);
  const local = seen.turns.filter((t) => t.end_of_turn);
  expect(finals.map((f) => [f.turn_order, f.turn_is_formatted, f.text])).toEqual(
    local.map((f) => [f.turn_order, f.turn_is_formatted, f.text]),
  );
  relayed.forEach((event, i) => {
    if (event.end_of_turn) return;
    const settled = relayed.slice(0, i).some((e) => e.end_of_turn && e.turn_order >= event.turn_order);
    expect(settled, `partial of turn ${event.turn_order} after its final`).toBe(false);
  });
  expect(relayed.filter((e) => !e.end_of_turn).length).toBeGreaterThan(0);
  expect(relayed.filter((e) => !e.end_of_turn).length).toBeLessThanOrEqual(
    seen.turns.filter((t) => !t.end_of_turn).length,
  );
  // The capturing tab's own connection was left out.
  expect(capturing.of('live-turn')).toEqual([]);

  // Analysed like an uploaded call: the order found, a private note on it, the customer tagged.
  const detail = await (await fetch(`${desk.server.url}/api/calls/${id}`)).json();
  expect(detail.status).toBe('done');
  expect(detail.completedBy).toBe('live');
  expect(detail.analysis.overall).toBe('NEGATIVE');
  expect(detail.analysis.orders.map((o: { number: string }) => o.number)).toEqual(['88']);
  expect(detail.live.finals.length).toBeGreaterThanOrEqual(SENTENCES.length);
  expect(detail.transcriptId).toMatch(/^[\w-]+$/);
  const notes = await desk.store.orders.notes.list(88);
  const note = notes.data.find((n) => n.note.includes(`transcript ${detail.transcriptId}`));
  expect(note?.note).toContain('Jane Smith called about order #88');
  expect(note?.note).toContain('Overall sentiment: NEGATIVE');
  const customer = await desk.store.customers.get(3);
  expect(customer.meta_data.find((m) => m.key === 'support_desk_unhappy')?.value).toBe('yes');
  // The session was closed with Terminate: none is left open on the sandbox.
  expect(desk.sandbox.transcription!.streaming.stats().open).toBe(0);
  tab.close();
  capturing.close();
}, 90_000);

it('survives a dropped socket mid-sentence: a fresh token from the desk, no final turn lost or repeated', async () => {
  const api = liveCallApi(desk.server.url);
  let tokens = 0;
  const spy = {
    ...api,
    token: (id: string, key: string) => {
      tokens++;
      return api.token(id, key);
    },
  };
  const microphone = wavMicrophone(await spokenCall(SENTENCES));
  const turns: LiveTurnInput[] = [];
  const errors: unknown[] = [];
  const session = new LiveCallSession(spy, microphone, {
    status: () => {},
    call: () => {},
    turn: (_id, t) => turns.push(t),
    error: (e) => errors.push(e),
  });
  await session.start();
  // Once the first sentence is final and the second is being spoken, the network drops the socket.
  await expect
    .poll(() => turns.some((t) => !t.end_of_turn && t.turn_order === 1 && t.text !== ''), { timeout: 20_000 })
    .toBe(true);
  expect(desk.sandbox.transcription!.streaming.dropSessions()).toBe(1);
  await microphone.done;
  const finals = () => turns.filter((t) => t.end_of_turn && t.turn_is_formatted);
  await expect
    .poll(
      () =>
        wordErrorRate(
          SENTENCES.join(' '),
          finals()
            .map((t) => t.text)
            .join(' '),
        ),
      { timeout: 20_000 },
    )
    .toBeLessThanOrEqual(0.15);
  await session.stop();
  expect(errors).toEqual([]);
  expect(tokens).toBeGreaterThanOrEqual(1);
  const orders = finals().map((t) => t.turn_order);
  expect(orders).toEqual([...new Set(orders)].sort((a, b) => a - b));
  const id = session.callId!;
  await expect
    .poll(async () => (await (await fetch(`${desk.server.url}/api/calls/${id}`)).json()).status, {
      timeout: 20_000,
    })
    .toBe('done');
  const detail = await (await fetch(`${desk.server.url}/api/calls/${id}`)).json();
  expect(detail.live.finals.map((t: LiveTurnInput) => t.text)).toEqual(finals().map((t) => t.text));
}, 90_000);
