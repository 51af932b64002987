import type { Hono } from 'hono';
import * as z from 'zod/mini';
import { LIVE_CALL_KEY_HEADER } from '../../shared/api.js';
import { LIVE_TURN_LIMITS } from '../../shared/live-transcript.js';
import type { DeskContext } from '../context.js';
import { parseInput, readJson } from '../errors.js';

const callParams = z.object({ id: z.string().check(z.regex(/^[0-9a-f-]{36}$/, 'expected a call id')) });

const startBody = z.strictObject({
  name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
});

const milliseconds = z.number().check(z.minimum(0), z.maximum(24 * 3600 * 1000));

const turn = z.strictObject({
  turn_order: z.number().check(z.int(), z.minimum(0), z.maximum(1_000_000)),
  end_of_turn: z.boolean(),
  turn_is_formatted: z.boolean(),
  text: z.string().check(z.maxLength(LIVE_TURN_LIMITS.maxChars)),
  words: z.optional(
    z
      .array(
        z.strictObject({ text: z.string().check(z.maxLength(100)), start: milliseconds, end: milliseconds }),
      )
      .check(z.maxLength(LIVE_TURN_LIMITS.maxWords)),
  ),
});

const relayBody = z.strictObject({
  /** The capturing tab's realtime connection, left out of the pushes of its own turns. */
  socket_id: z.optional(
    z.string().check(z.regex(/^\d{1,20}\.\d{1,20}$/, 'expected a socket id such as "123.456"')),
  ),
  turns: z.array(turn).check(z.minLength(1), z.maxLength(LIVE_TURN_LIMITS.maxTurnsPerRelay)),
});

const endBody = z.strictObject({
  /** The streaming session's id (`Begin.id`): the transcript id the analysis and the order note quote. */
  session_id: z.optional(z.string().check(z.regex(/^[\w-]{1,100}$/, 'expected a session id'))),
  /** `Termination.audio_duration_seconds`. */
  audio_duration_seconds: z.optional(z.number().check(z.minimum(0), z.maximum(24 * 3600))),
});

/**
 * Live calls: `POST /api/live-calls` gives the page a temporary streaming token (never the API key); the
 * page then relays its turns, asks for fresh tokens when its socket reconnects, and ends the call, each with
 * the call's key.
 */
export function liveCallRoutes(app: Hono, desk: DeskContext): void {
  app.post('/api/live-calls', async (c) => {
    const { name } = parseInput(startBody, await readJson(c.req.raw, {}), 'live call');
    return c.json(await desk.live.start(name), 201);
  });

  app.post('/api/live-calls/:id/token', async (c) => {
    const { id } = parseInput(callParams, c.req.param(), 'call id');
    return c.json(await desk.live.token(id, c.req.header(LIVE_CALL_KEY_HEADER)));
  });

  app.post('/api/live-calls/:id/turns', async (c) => {
    const { id } = parseInput(callParams, c.req.param(), 'call id');
    const body = parseInput(relayBody, await readJson(c.req.raw, {}), 'turns');
    const changed = await desk.live.relay(id, c.req.header(LIVE_CALL_KEY_HEADER), body.turns, body.socket_id);
    return c.json({ changed });
  });

  app.post('/api/live-calls/:id/end', async (c) => {
    const { id } = parseInput(callParams, c.req.param(), 'call id');
    const ending = parseInput(endBody, await readJson(c.req.raw, {}), 'end');
    return c.json({ call: await desk.live.end(id, c.req.header(LIVE_CALL_KEY_HEADER), ending) }, 202);
  });
}
