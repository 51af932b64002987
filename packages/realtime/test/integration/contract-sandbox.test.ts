/**
 * A zod contract at both ends, against the sandbox's realtime emulator over real sockets: the server SDK
 * refuses a payload its schema rejects before any HTTP request (the emulator's request count does not
 * move), sync or async schema, through `trigger`, `triggerBatch` and `sendToUser`; a client drops a received
 * event that fails, reports it (`pusher:validation_error` and its logger, naming the path and never the
 * value) and delivers the valid ones exactly once and in arrival order, an async schema included; client
 * events are refused before sending, and an async refusal neither sends nor reorders the ones after it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { defineContract, event, ValidationError } from '../../src/index.js';
import type { RealtimeServer } from '../../src/server.js';
import { waitFor } from '../helpers/sandbox.js';
import { clientSandbox } from '../helpers/sandbox-hooks.js';

const SECRET = 'do-not-leak-4711';

const contract = defineContract({
  'private-order-{id}': {
    'order-updated': z.object({ id: z.string(), status: z.enum(['paid', 'shipped']) }),
    // Async: zod's async refinements make `~standard.validate` answer with a Promise.
    'order-noted': z
      .object({ note: z.string() })
      .check(z.refine(async (v) => !v.note.includes('!'), 'no shouting')),
    'client-typing': z.object({ who: z.string() }),
    'client-cursor': z.object({ x: z.number() }).check(z.refine(async (v) => v.x >= 0, 'x must be >= 0')),
  },
  '#server-to-user-{id}': { notice: z.object({ text: z.string() }) },
  news: { headline: event<{ title: string }>() },
});

const { box, server: plain, fleet } = clientSandbox();
let typed: RealtimeServer;
beforeAll(() => {
  typed = box.server({ contract });
});

/** A logger that keeps every line; the test asserts what a refusal logs. */
function recorder() {
  const lines: string[] = [];
  const keep = (...args: unknown[]) => lines.push(args.map(String).join(' '));
  return { lines, logger: { warn: keep, error: keep, info: keep, debug: keep } };
}

describe('the server refuses an invalid payload before any request', () => {
  it('trigger, triggerBatch and sendToUser, sync and async schemas', async () => {
    const before = box.requests();
    const refused = [
      typed.trigger('private-order-1', 'order-updated', { id: '1', status: SECRET }),
      typed.trigger('private-order-1', 'order-updated', { id: '1', status: 'paid' }, {}, { timeout: 5000 }),
      typed.trigger(['private-order-1', 'private-order-2'], 'order-updated', { id: 1, status: 'paid' }),
      typed.trigger('private-order-1', 'order-noted', { note: `${SECRET}!` }),
      typed.triggerBatch([
        { channel: 'news', name: 'headline', data: { title: 'fine' } },
        { channel: 'private-order-3', name: 'order-noted', data: { note: `${SECRET}!` } },
      ]),
      typed.sendToUser('u-1', 'notice', { text: 7 }),
    ];
    const outcomes = await Promise.allSettled(refused);
    expect(outcomes.map((o) => o.status)).toEqual([
      'rejected',
      'fulfilled',
      'rejected',
      'rejected',
      'rejected',
      'rejected',
    ]);
    // Only the one valid trigger made a request.
    expect(box.requests()).toBe(before + 1);
    const errors = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
    for (const error of errors) {
      expect(error).toBeInstanceOf(ValidationError);
      expect(JSON.stringify(error)).not.toContain(SECRET);
      expect(error.message).not.toContain(SECRET);
    }
    expect(errors[0].issues).toEqual([
      { path: 'data.status', message: expect.stringContaining('(event order-updated on private-order-1)') },
    ]);
    expect(errors[1].issues.map((i: { path: string }) => i.path)).toEqual(['data.id', 'data.id']);
    expect(errors[2].issues).toEqual([
      { path: 'data', message: 'no shouting (event order-noted on private-order-1)' },
    ]);
    expect(errors[3].issues).toEqual([
      { path: '1.data', message: 'no shouting (event order-noted on private-order-3)' },
    ]);
    expect(errors[4].issues[0].path).toBe('data.text');
    expect(errors[4].issues[0].message).toContain('#server-to-user-u-1');
  });

  it('validate: none sends what the schema would refuse (types only)', async () => {
    const before = box.requests();
    const loose = box.server({ contract, validate: 'none' });
    await loose.trigger(
      'private-order-1',
      'order-updated',
      { id: '1', status: 'lost' },
      {},
      { timeout: 5000 },
    );
    expect(box.requests()).toBe(before + 1);
  });
});

describe('the client checks what it receives', () => {
  it('drops an invalid event, reports it, and delivers the valid ones once, in order', async () => {
    const { lines, logger } = recorder();
    const client = await fleet.connected('ada', { contract, logger });
    const channel = client.subscribe('private-order-7');
    const got: unknown[] = [];
    const reported: { event: string; error: ValidationError }[] = [];
    channel.bind('order-updated', (data) => got.push(['updated', data]));
    channel.bind('order-noted', (data) => got.push(['noted', data]));
    channel.bind('pusher:validation_error', (report) => reported.push(report));
    await channel.subscribed;

    // From a server without the contract, as a stale deployment would send them.
    await plain.triggerBatch([
      { channel: 'private-order-7', name: 'order-noted', data: { note: 'one' } },
      { channel: 'private-order-7', name: 'order-updated', data: { id: '7', status: SECRET } },
      { channel: 'private-order-7', name: 'order-noted', data: { note: `${SECRET}!` } },
      { channel: 'private-order-7', name: 'order-updated', data: { id: '7', status: 'paid' } },
      { channel: 'private-order-7', name: 'order-noted', data: { note: 'two' } },
    ]);
    await waitFor(() => got.length === 3 && reported.length === 2);
    // The sync-valid `updated` waited for the async `noted` before it: arrival order holds.
    expect(got).toEqual([
      ['noted', { note: 'one' }],
      ['updated', { id: '7', status: 'paid' }],
      ['noted', { note: 'two' }],
    ]);
    expect(reported.map((r) => [r.event, r.error.issues.map((i) => i.path)])).toEqual([
      ['order-updated', ['data.status']],
      ['order-noted', ['data']],
    ]);
    expect(reported[1]?.error.message).toBe(
      'Invalid received event order-noted on private-order-7: data: no shouting',
    );
    const warnings = lines.filter((l) => l.includes('received event'));
    expect(warnings).toHaveLength(2);
    expect(lines.join('\n')).not.toContain(SECRET);
    // Still connected and subscribed: nothing was thrown in the socket's handler.
    expect(client.connection.state).toBe('connected');
    expect(channel.isSubscribed).toBe(true);
    // A later valid event still arrives, exactly once.
    await plain.trigger('private-order-7', 'order-updated', { id: '7', status: 'shipped' });
    await waitFor(() => got.length === 4);
    expect(got.at(-1)).toEqual(['updated', { id: '7', status: 'shipped' }]);
  });
});

describe('client events', () => {
  it('a sync refusal throws before sending; an async one is reported and not sent; order holds', async () => {
    const { lines, logger } = recorder();
    const ada = await fleet.connected('ada', { contract, logger });
    const bob = await fleet.connected('bob');
    const adaChannel = ada.subscribe('private-order-9');
    const bobChannel = bob.subscribe('private-order-9');
    const bobGot: unknown[] = [];
    bobChannel.bindGlobal((name, data) => {
      if (name.startsWith('client-')) bobGot.push([name, data]);
    });
    const reported: string[] = [];
    adaChannel.bind('pusher:validation_error', ({ event: name, error }) =>
      reported.push(`${name} ${error.message}`),
    );
    await Promise.all([adaChannel.subscribed, bobChannel.subscribed]);

    // (The fleet's clients are typed without the contract: this is the run-time check alone.)
    expect(() => adaChannel.trigger('client-typing', { who: 7 })).toThrow(ValidationError);
    expect(adaChannel.trigger('client-cursor', { x: 1 })).toBe(true);
    expect(adaChannel.trigger('client-cursor', { x: -1 })).toBe(true); // async: refused later, never sent
    expect(adaChannel.trigger('client-typing', { who: 'ada' })).toBe(true); // waits behind the async ones
    expect(adaChannel.trigger('client-cursor', { x: 2 })).toBe(true);

    await waitFor(() => bobGot.length === 3);
    expect(bobGot).toEqual([
      ['client-cursor', { x: 1 }],
      ['client-typing', { who: 'ada' }],
      ['client-cursor', { x: 2 }],
    ]);
    expect(reported).toEqual([
      'client-cursor Invalid client event client-cursor on private-order-9: data: x must be >= 0',
    ]);
    expect(lines.filter((l) => l.includes('client event client-cursor'))).toHaveLength(1);
  });

  it("validate: 'receive' leaves client events unchecked (and a misspelt mode checks both ways)", async () => {
    const ada = await fleet.connected('ada', { contract, validate: 'receive' });
    const bob = await fleet.connected('bob');
    const adaChannel = ada.subscribe('private-order-10');
    const bobChannel = bob.subscribe('private-order-10');
    const bobGot: unknown[] = [];
    bobChannel.bind('client-typing', (data) => bobGot.push(data));
    await Promise.all([adaChannel.subscribed, bobChannel.subscribed]);
    expect(adaChannel.trigger('client-typing', { who: 7 })).toBe(true);
    await waitFor(() => bobGot.length === 1);
    expect(bobGot).toEqual([{ who: 7 }]);

    const misspelt = await fleet.connected('cy', { contract, validate: 'sned' as never });
    const cyChannel = misspelt.subscribe('private-order-10');
    await cyChannel.subscribed;
    expect(() => cyChannel.trigger('client-typing', { who: 7 })).toThrow(ValidationError);
  });
});
