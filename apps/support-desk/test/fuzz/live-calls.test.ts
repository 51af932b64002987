/**
 * The live-call surface, fuzzed with fast-check. Over HTTP: sequences of relays with random and near-valid
 * bodies, keys and ids, and single requests on all four routes; every answer is a JSON error the page can
 * show or a success, never a 5xx, and the server's transcript is exactly the accepted turns folded with
 * `applyTurn` (a request on another route leaves it as it was). Offline: random turn sequences keep
 * `applyTurn`'s invariants (finals once each, in order, a formatted copy never replaced, no partial of a
 * settled turn). A failure shrinks to the shortest sequence and the plainest values.
 *
 * Each seed gets a desk of its own: every call started and every token asked for is a temporary-token
 * request, which the desk's transcription client holds to 60 a minute (it would wait, not fail). So the
 * relays of a run go to one call per seed, at turn orders above everything the call holds (`base`), which
 * makes each run meet a transcript as a new call would.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import type { LiveCallStart, LiveTranscriptView, LiveTurnView } from '../../src/shared/api.js';
import { applyTurn, EMPTY_TRANSCRIPT } from '../../src/shared/live-transcript.js';
import { type Desk, startDesk } from '../helpers/desk.js';

/** The routes' field names and a few others, so random objects land on the fields the routes check. */
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
] as const;
const STRINGS = [
  '',
  'hello',
  'Order 88.',
  '123.456',
  'ééé',
  '\u0000',
  '💬',
  'x'.repeat(5001),
  '<script>',
  '"}',
];
/** At and around the bounds: `turn_order`'s 1 000 000, a word's 24 h in ms, 2^53. */
const NUMBERS = [0, -1, 1, 0.5, 2 ** 53, -0, 1e308, 1_000_001, 999_999, 7, 86_400_001];

/** JSON a few levels deep whose keys are mostly the routes' own (`__proto__` as a plain key). */
const { json } = fc.letrec((tie) => ({
  json: fc.oneof(
    { maxDepth: 3, withCrossShrink: true },
    fc.oneof(fc.constant(null), fc.boolean(), fc.constantFrom(...NUMBERS), fc.constantFrom(...STRINGS)),
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('json'), { maxLength: 3 }),
  object: fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 4 })), tie('json')), {
      maxLength: 4,
    })
    .map((entries) => Object.fromEntries(entries)),
}));

type Word = { text: string; start: number; end: number };
type RelayedTurn = LiveTurnView & { words?: Word[] };

/** A turn as a page relays it: partials unformatted; finals formatted or not, often with their words. */
const turn: fc.Arbitrary<RelayedTurn> = fc
  .record({
    turn_order: fc.integer({ min: 0, max: 5 }),
    end_of_turn: fc.boolean(),
    formatted: fc.boolean(),
    text: fc.oneof(
      fc.constantFrom('a', 'a b', 'a b c', 'Order 88.', ''),
      fc.nat(300).map((n) => 'x'.repeat(n)),
    ),
    with_words: fc.boolean(),
  })
  .map(({ turn_order, end_of_turn, formatted, text, with_words }) => ({
    turn_order,
    end_of_turn,
    turn_is_formatted: end_of_turn && formatted,
    text,
    ...(end_of_turn && with_words
      ? { words: text.split(' ').map((w, i) => ({ text: w, start: i * 100, end: i * 100 + 90 })) }
      : {}),
  }));

/** Mostly nothing (fast-check's optional keys are there five times in six); shrinks to nothing. */
const sometimes = <T>(weight: number, arbitrary: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 10 - weight, arbitrary: fc.constant(undefined) }, { weight, arbitrary });

/** A near-valid relay: well formed, or with a socket id, or with one field of its first turn broken. */
const relay = fc.record({
  turns: fc.array(turn, { minLength: 1, maxLength: 4 }),
  socket_id: sometimes(3, fc.constantFrom<unknown>('123.456', 'nope', '1.2.3', 42)),
  broken: sometimes(2, fc.tuple(fc.constantFrom(...KEYS), json)),
});
type Relay = typeof relay extends fc.Arbitrary<infer R> ? R : never;

/** The relay's body, its turn orders counted from `base`; a broken field keeps the value drawn. */
function relayBody({ turns, socket_id, broken }: Relay, base: number): Record<string, unknown> {
  const shifted: Record<string, unknown>[] = turns.map((t) => ({ ...t, turn_order: base + t.turn_order }));
  if (broken) shifted[0] = { ...shifted[0], [broken[0]]: broken[1] };
  return socket_id === undefined ? { turns: shifted } : { turns: shifted, socket_id };
}

const body = fc.oneof(
  { weight: 7, arbitrary: relay.map((r) => ({ relay: r })) },
  { weight: 2, arbitrary: json.map((value) => ({ value })) },
  { weight: 1, arbitrary: fc.constantFrom('{', '[]', '"', 'null', '').map((text) => ({ text })) },
);

/** Stand-ins for the call's own id and key, which exist only once the seed's call has started. */
const OWN = Symbol('own');
const TRUNCATED = Symbol('the key less its first character');
const NO_HEADER = Symbol('no key header');

const id = fc.oneof(
  { weight: 9, arbitrary: fc.constant<string | symbol>(OWN) },
  fc.constantFrom('00000000-0000-0000-0000-000000000000', 'x', '../calls', '%00'),
);
// 'ü' is a valid header byte (Latin-1): it reaches the server as it is.
const key = fc.oneof(
  { weight: 6, arbitrary: fc.constant<string | symbol>(OWN) },
  fc.constantFrom<string | symbol>('', 'A'.repeat(32), TRUNCATED, NO_HEADER, 'ü'),
);
const relayRequest = fc.record({ route: fc.constant('turns'), id, key, body });
const anyRequest = fc.record({
  route: fc.constantFrom('turns', 'token', 'start', 'end-other'),
  id,
  key,
  body,
});
type Request = typeof anyRequest extends fc.Arbitrary<infer R> ? R : never;

const ANSWERS = new Set([200, 201, 202, 400, 403, 404, 409, 413]);

function post(desk: Desk, path: string, text: string, callKey?: string): Promise<Response> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (callKey !== undefined) headers['X-Live-Call-Key'] = callKey;
  return fetch(`${desk.server.url}${path}`, { method: 'POST', headers, body: text });
}

async function transcriptOf(desk: Desk, call: LiveCallStart): Promise<LiveTranscriptView> {
  const res = await fetch(`${desk.server.url}/api/calls/${call.call.id}`);
  expect(res.status).toBe(200);
  return (await res.json()).live;
}

/** The first turn order above every turn `view` holds. */
const baseOf = (view: LiveTranscriptView) =>
  Math.max(view.finals.at(-1)?.turn_order ?? -1, view.partial?.turn_order ?? -1) + 1;

/** What a request did to the call's transcript: `taken` relays (0 or 1) adding `changed` turns. */
interface Sent {
  model: LiveTranscriptView;
  taken: number;
  changed: number;
}

/**
 * Sends `req` for `call` (a relay's turn orders counted from `base`), checks the answer, and folds into
 * `model` the turns the server took: those of a 200 on the call's own turns route, as the server read them
 * (JSON has no -0, for one).
 */
async function send(
  desk: Desk,
  call: LiveCallStart,
  req: Request,
  model: LiveTranscriptView,
  base: number,
): Promise<Sent> {
  const id = req.id === OWN ? call.call.id : (req.id as string);
  const callKey =
    req.key === OWN
      ? call.key
      : req.key === TRUNCATED
        ? call.key.slice(1)
        : req.key === NO_HEADER
          ? undefined
          : (req.key as string);
  const b = req.body;
  const text = 'text' in b ? b.text : JSON.stringify('relay' in b ? relayBody(b.relay, base) : b.value);
  const path =
    req.route === 'start'
      ? '/api/live-calls'
      : req.route === 'end-other'
        ? '/api/live-calls/00000000-0000-0000-0000-000000000000/end'
        : `/api/live-calls/${encodeURIComponent(id)}/${req.route}`;
  const res = await post(desk, path, text, callKey);
  const answer = await res.json();
  expect(ANSWERS.has(res.status), `${res.status} ${JSON.stringify(answer)} for ${path}`).toBe(true);
  if (res.status >= 400)
    expect(answer.error).toMatchObject({ status: res.status, message: expect.any(String) });
  if (req.route === 'start' && res.status === 201) {
    const extra = answer as LiveCallStart;
    expect((await post(desk, `/api/live-calls/${extra.call.id}/end`, '', extra.key)).status).toBe(202);
  }
  if (req.route !== 'turns' || res.status !== 200 || id !== call.call.id)
    return { model, taken: 0, changed: 0 };
  let changed = 0;
  for (const { turn_order, end_of_turn, turn_is_formatted, text: said } of (
    JSON.parse(text) as { turns: LiveTurnView[] }
  ).turns) {
    const applied = applyTurn(model, { turn_order, end_of_turn, turn_is_formatted, text: said });
    if (applied) [model, changed] = [applied.view, changed + 1];
  }
  expect(answer, 'the number of turns the server took').toEqual({ changed });
  return { model, taken: 1, changed };
}

/** A desk and a call of their own for `check`; the call ends as the page ends it, and the desk still serves. */
async function withCall(check: (desk: Desk, call: LiveCallStart) => Promise<void>): Promise<void> {
  const desk = await startDesk({
    staticDir: undefined,
    liveCalls: {
      startsPerMinute: 10_000,
      maxOpen: 10_000,
      tokensPerCall: 10_000,
      relaysPerSecond: 100_000,
      // Every run adds turns to the one call, shrinking's too: no run may meet a full transcript.
      maxTurns: 1_000_000,
      maxTranscriptChars: 1_000_000_000,
    },
  });
  try {
    const start = await post(desk, '/api/live-calls', '{}');
    expect(start.status).toBe(201);
    const call: LiveCallStart = await start.json();
    await check(desk, call);
    const held = await transcriptOf(desk, call);
    expect((await post(desk, `/api/live-calls/${call.call.id}/end`, '', call.key)).status).toBe(202);
    expect(await transcriptOf(desk, call)).toEqual(held);
    expect((await fetch(`${desk.server.url}/api/config`)).status).toBe(200);
  } finally {
    await desk.close();
  }
}

describe('live-call routes, fuzzed over HTTP', () => {
  for (const run of fuzzRuns(50)) {
    it(`relays: every answer one the page can show, and the transcript the accepted turns make (${run.label})`, async () => {
      let [requests, taken, changed] = [0, 0, 0];
      await withCall(async (desk, call) => {
        await fc.assert(
          fc.asyncProperty(fc.array(relayRequest, { minLength: 1, maxLength: 20 }), async (reqs) => {
            let model = await transcriptOf(desk, call);
            // One base for the whole run, so that its relays meet each other's turns.
            const base = baseOf(model);
            for (const req of reqs) {
              requests++;
              const sent = await send(desk, call, req, model, base);
              [model, taken, changed] = [sent.model, taken + sent.taken, changed + sent.changed];
            }
            expect(await transcriptOf(desk, call)).toEqual(model);
          }),
          { seed: run.seed, numRuns: run.numRuns },
        );
      });
      reportFuzz('support-desk live-call relays', run, requests);
      console.log(`  of which ${taken} taken, changing ${changed} turns`);
      // Else the transcript property held of nothing.
      expect(changed).toBeGreaterThan(0);
    });
  }

  for (const run of fuzzRuns(40)) {
    it(`every route: every answer one the page can show, the transcript changed only by turns taken (${run.label})`, async () => {
      let requests = 0;
      await withCall(async (desk, call) => {
        await fc.assert(
          fc.asyncProperty(anyRequest, async (req) => {
            requests++;
            const before = await transcriptOf(desk, call);
            const { model } = await send(desk, call, req, before, baseOf(before));
            expect(await transcriptOf(desk, call)).toEqual(model);
          }),
          { seed: run.seed, numRuns: run.numRuns },
        );
      });
      reportFuzz('support-desk live-call routes', run, requests);
    });
  }
});

/** One step of `applyTurn` from `before` with `t`, checked against its rules; answers the new transcript. */
function expectStep(before: LiveTranscriptView, t: LiveTurnView): LiveTranscriptView {
  const applied = applyTurn(before, t);
  const view = applied?.view ?? before;
  const orders = view.finals.map((f) => f.turn_order);
  // Finals once each, in order.
  expect(orders).toEqual([...new Set(orders)].sort((a, b) => a - b));
  // No final lost; a formatted one never replaced.
  for (const old of before.finals) {
    const now = view.finals.find((f) => f.turn_order === old.turn_order);
    expect(now).toBeDefined();
    if (old.turn_is_formatted) expect(now).toBe(old);
  }
  // No partial of a settled turn.
  if (view.partial) expect(view.partial.turn_order).toBeGreaterThan(orders.at(-1) ?? -1);
  const existing = before.finals.find((f) => f.turn_order === t.turn_order);
  if (t.end_of_turn) {
    // A new final, or the formatted copy of an unformatted one, is taken; any other final changes nothing.
    if (!existing || (!existing.turn_is_formatted && t.turn_is_formatted))
      expect(view.finals.find((f) => f.turn_order === t.turn_order)).toBe(t);
    else expect(applied).toBeNull();
  } else if (t.turn_order <= (before.finals.at(-1)?.turn_order ?? -1)) {
    expect(applied).toBeNull();
  } else if (t.turn_order >= (before.partial?.turn_order ?? -1)) {
    // A partial of the turn being spoken, or of a later one, is the one shown.
    expect(view.partial).toMatchObject({ turn_order: t.turn_order, text: t.text });
  } else {
    expect(applied).toBeNull();
  }
  // The same turn again changes nothing.
  if (applied) expect(applyTurn(view, t)).toBeNull();
  return view;
}

describe('applyTurn, fuzzed', () => {
  for (const run of fuzzRuns(300)) {
    it(`keeps each final once and in order, and no partial of a settled turn (${run.label})`, () => {
      let turns = 0;
      fc.assert(
        fc.property(fc.array(turn, { minLength: 1, maxLength: 40, size: 'medium' }), (sequence) => {
          let view = EMPTY_TRANSCRIPT;
          for (const { words: _words, ...t } of sequence) {
            turns++;
            view = expectStep(view, t);
          }
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('support-desk applyTurn', run, turns);
    });
  }
});
