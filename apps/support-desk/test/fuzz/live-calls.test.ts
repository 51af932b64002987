/**
 * The live-call surface, fuzzed. Over HTTP: random and near-valid bodies, keys and ids on the four routes;
 * every answer is a JSON error the page can show or a success, never a 5xx, and the server's transcript is
 * exactly the accepted turns folded with `applyTurn`. Offline: random turn sequences keep `applyTurn`'s
 * invariants (finals once each, in order, a formatted copy never replaced, no partial of a settled turn).
 *
 * Seeded by `fuzz.shared.ts` like every suite; the inputs come from a small generator here, since the desk
 * does not depend on fast-check (see the README's tests section).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import type { LiveCallStart, LiveTranscriptView, LiveTurnView } from '../../src/shared/api.js';
import { applyTurn, EMPTY_TRANSCRIPT } from '../../src/shared/live-transcript.js';
import { type Desk, startDesk } from '../helpers/desk.js';

/** mulberry32: a tiny seeded generator, so a seed replays the same inputs. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick, chance: (p: number) => next() < p };
}
type Random = ReturnType<typeof random>;

const KEYS = [
  'turns',
  'turn_order',
  'end_of_turn',
  'turn_is_formatted',
  'text',
  'words',
  'socket_id',
  'session_id',
  'audio_duration_seconds',
  'name',
  'start',
  'end',
  '__proto__',
  'constructor',
  '',
];
const STRINGS = [
  '',
  'hello',
  'Order 88.',
  '123.456',
  'é'.repeat(3),
  '\u0000',
  '💬',
  'x'.repeat(5001),
  '<script>',
  '"}',
];
const NUMBERS = [0, -1, 1, 0.5, 2 ** 53, -0, 1e308, 1_000_001, 999_999, 7];

function json(r: Random, depth = 0): unknown {
  switch (r.int(depth > 2 ? 4 : 6)) {
    case 0:
      return null;
    case 1:
      return r.chance(0.5);
    case 2:
      return r.pick(NUMBERS);
    case 3:
      return r.pick(STRINGS);
    case 4:
      return Array.from({ length: r.int(4) }, () => json(r, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: r.int(5) }, () => [r.pick(KEYS), json(r, depth + 1)]));
  }
}

function turn(r: Random): LiveTurnView & { words?: unknown } {
  const final = r.chance(0.4);
  const text = r.pick(['a', 'a b', 'a b c', 'Order 88.', '', 'x'.repeat(r.int(300))]);
  const words = text.split(' ').map((w, i) => ({ text: w, start: i * 100, end: i * 100 + 90 }));
  return {
    turn_order: r.int(6),
    end_of_turn: final,
    turn_is_formatted: final && r.chance(0.5),
    text,
    ...(final && r.chance(0.7) ? { words } : {}),
  };
}

/** A near-valid body: mostly well formed, now and then one field broken or one added. */
function relayBody(r: Random): unknown {
  const body: Record<string, unknown> = { turns: Array.from({ length: 1 + r.int(4) }, () => turn(r)) };
  if (r.chance(0.3)) body.socket_id = r.pick(['123.456', 'nope', '1.2.3', 42]);
  if (r.chance(0.2)) {
    const t = (body.turns as Record<string, unknown>[])[0]!;
    t[r.pick(KEYS)] = json(r, 2);
  }
  return body;
}

let desk: Desk;
beforeAll(async () => {
  desk = await startDesk({
    staticDir: undefined,
    liveCalls: { startsPerMinute: 10_000, maxOpen: 10_000, tokensPerCall: 10_000, relaysPerSecond: 100_000 },
  });
});
afterAll(() => desk?.close());

const ANSWERS = new Set([200, 201, 202, 400, 403, 404, 409, 413]);

describe('live-call routes, fuzzed over HTTP', () => {
  for (const run of fuzzRuns(120)) {
    it(`answers every input with a status the page can show, and keeps the transcript the accepted turns make (${run.label})`, async () => {
      const r = random(run.seed);
      const start = await fetch(`${desk.server.url}/api/live-calls`, { method: 'POST', body: '{}' });
      const call: LiveCallStart = await start.json();
      let model: LiveTranscriptView = EMPTY_TRANSCRIPT;
      let inputs = 0;
      for (let i = 0; i < run.numRuns; i++) {
        const route = r.pick(['turns', 'turns', 'turns', 'token', 'start', 'end-other']);
        const id = r.chance(0.9)
          ? call.call.id
          : r.pick(['00000000-0000-0000-0000-000000000000', 'x', '../calls', '%00']);
        const key = r.chance(0.85) ? call.key : r.pick(['', 'A'.repeat(32), call.key.slice(1), 'ü']);
        const body = r.chance(0.7)
          ? relayBody(r)
          : r.chance(0.5)
            ? json(r)
            : r.pick(['{', '[]', '"', 'null', '']);
        const path =
          route === 'start'
            ? '/api/live-calls'
            : route === 'end-other'
              ? '/api/live-calls/00000000-0000-0000-0000-000000000000/end'
              : `/api/live-calls/${encodeURIComponent(id)}/${route}`;
        const headers: Record<string, string> = { 'Content-Type': 'application/json' };
        if (/^[\x20-\x7e]*$/.test(key)) headers['X-Live-Call-Key'] = key;
        const res = await fetch(`${desk.server.url}${path}`, {
          method: 'POST',
          headers,
          body: typeof body === 'string' ? body : JSON.stringify(body),
        });
        inputs++;
        const answer = await res.json();
        expect(ANSWERS.has(res.status), `${res.status} ${JSON.stringify(answer)} for ${path}`).toBe(true);
        if (res.status >= 400)
          expect(answer.error).toMatchObject({ status: res.status, message: expect.any(String) });
        if (route === 'start' && res.status === 201) {
          const extra = answer as LiveCallStart;
          await fetch(`${desk.server.url}/api/live-calls/${extra.call.id}/end`, {
            method: 'POST',
            headers: { 'X-Live-Call-Key': extra.key },
          });
        }
        if (route === 'turns' && res.status === 200 && id === call.call.id) {
          for (const t of (body as { turns: LiveTurnView[] }).turns) {
            const { turn_order, end_of_turn, turn_is_formatted, text } = t;
            model = applyTurn(model, { turn_order, end_of_turn, turn_is_formatted, text })?.view ?? model;
          }
        }
      }
      const detail = await (await fetch(`${desk.server.url}/api/calls/${call.call.id}`)).json();
      expect(detail.live).toEqual(model);
      const end = await fetch(`${desk.server.url}/api/live-calls/${call.call.id}/end`, {
        method: 'POST',
        headers: { 'X-Live-Call-Key': call.key },
      });
      expect(end.status).toBe(202);
      // Still serving.
      expect((await fetch(`${desk.server.url}/api/config`)).status).toBe(200);
      reportFuzz('support-desk live-call routes', run, inputs);
    });
  }
});

describe('applyTurn, fuzzed', () => {
  for (const run of fuzzRuns(2000)) {
    it(`keeps each final once and in order, and no partial of a settled turn (${run.label})`, () => {
      const r = random(run.seed);
      let view = EMPTY_TRANSCRIPT;
      let sequences = 0;
      for (let i = 0; i < run.numRuns; i++) {
        if (i % 40 === 0) {
          view = EMPTY_TRANSCRIPT;
          sequences++;
        }
        const { words: _words, ...t } = turn(r);
        const before = view;
        const applied = applyTurn(view, t);
        if (applied) view = applied.view;
        const orders = view.finals.map((f) => f.turn_order);
        expect(orders).toEqual([...new Set(orders)].sort((a, b) => a - b));
        for (const old of before.finals) {
          const now = view.finals.find((f) => f.turn_order === old.turn_order);
          expect(now).toBeDefined();
          if (old.turn_is_formatted) expect(now).toBe(old);
        }
        if (view.partial) expect(view.partial.turn_order).toBeGreaterThan(orders.at(-1) ?? -1);
        // The same turn again changes nothing.
        if (applied) expect(applyTurn(view, t)).toBeNull();
      }
      reportFuzz('support-desk applyTurn', run, run.numRuns);
      expect(sequences).toBeGreaterThan(0);
    });
  }
});
