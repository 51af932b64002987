/**
 * The client's guard (what `contract.guard` fits on the client's channel host) with a schema that never
 * answers: the wait it causes is one channel object's, bounded, and a channel made again after an
 * unsubscribe (a new emitter) is not held behind the old one.
 */
import { describe, expect, it } from 'vitest';
import { defineContract, type StandardSchemaV1, ValidationError } from '../../src/index.js';
import type { GuardedHost, Reporter } from '../../src/shared/contract.js';

const BUFFER = 3;
/** `stuck` never answers; `slow` answers a resolved promise (always async, never refused). */
const schema = (validate: () => unknown) =>
  ({ '~standard': { version: 1, vendor: 'test', validate } }) as unknown as StandardSchemaV1;
const contract = defineContract({
  'private-{id}': {
    stuck: schema(() => new Promise(() => {})),
    slow: schema(async () => ({ value: 1 })),
    'client-stuck': schema(() => new Promise(() => {})),
    'client-slow': schema(async () => ({ value: 1 })),
  },
});

function fit() {
  const pushed: string[] = [];
  const host: GuardedHost = {
    log: () => {},
    clientEvent: (channel, event) => {
      pushed.push(`${channel} ${event}`);
      return true;
    },
  };
  contract.guard(host, { clientEventBuffer: BUFFER }, ValidationError);
  return { host, pushed };
}

/** A channel object's emitter, as the guard sees it: what it reports. */
const reporter = () => {
  const reports: string[] = [];
  const r: Reporter = { emit: (_, { event, error }) => reports.push(`${event}: ${error.message}`) };
  return { r, reports };
};

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('received events behind a schema that never answers', () => {
  it('the wait is bounded: beyond it events are dropped and reported, not kept', async () => {
    const { host } = fit();
    const old = reporter();
    let delivered = 0;
    for (let i = 0; i < 1500; i++)
      host.gate?.('private-a', i ? 'slow' : 'stuck', i, old.r, () => delivered++);
    await settle();
    expect(delivered).toBe(0);
    // 1000 wait (the stuck one among them); the other 500 are reported as dropped, each once.
    expect(old.reports).toHaveLength(500);
    for (const line of old.reports) expect(line).toMatch(/^slow: .*dropped: 1000 events already wait/);
  });

  it('the same channel subscribed again (a new channel object) is not held behind the old one', async () => {
    const { host } = fit();
    const old = reporter();
    host.gate?.('private-a', 'stuck', 1, old.r, () => {});
    const again = reporter();
    const seen: number[] = [];
    for (const n of [1, 2, 3]) host.gate?.('private-a', 'slow', n, again.r, () => seen.push(n));
    await settle();
    expect(seen).toEqual([1, 2, 3]);
    expect(again.reports).toEqual([]);
  });
});

describe('client events behind a schema that never answers', () => {
  it('hold their own channel only: another channel still sends, and a new channel object starts afresh', async () => {
    const { host, pushed } = fit();
    const a = reporter();
    expect(host.clientEvent('private-a', 'client-stuck', 1, a.r)).toBe(true);
    for (let i = 1; i < BUFFER; i++) expect(host.clientEvent('private-a', 'client-slow', i, a.r)).toBe(true);
    expect(host.clientEvent('private-a', 'client-slow', 9, a.r)).toBe(false);
    const b = reporter();
    expect(host.clientEvent('private-b', 'client-slow', 1, b.r)).toBe(true);
    const again = reporter();
    expect(host.clientEvent('private-a', 'client-slow', 2, again.r)).toBe(true);
    await settle();
    expect(pushed).toEqual(['private-b client-slow', 'private-a client-slow']);
  });
});
