/**
 * The call's cart link under hostile timing, over real sockets (test/helpers/hostile-store.ts: the store
 * behind a proxy that can hold a read back): a link or refresh that finishes late never replaces a newer
 * one, a link announces the call as it is now, one code links one call, a flood of help requests costs no
 * customer their code, and guesses that arrive together are bounded like guesses one by one.
 */
import { randomInt } from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CODES_PER_MINUTE } from '../../src/server/storefront/guesses.js';
import { DEFAULT_CODE_TTL_MS, DEFAULT_MAX_CODES } from '../../src/server/storefront/help-codes.js';
import type { CallView } from '../../src/shared/api.js';
import {
  expectNoSecrets,
  type HostileDesk,
  type Linked,
  startHostileDesk,
} from '../helpers/hostile-store.js';
import { listen } from '../helpers/listener.js';

let h: HostileDesk;
beforeAll(async () => {
  h = await startHostileDesk();
});
afterAll(() => h?.close());
const post = <T>(path: string, body?: unknown) => h.post<T>(path, body);
const customerCart = (quantity: number) => h.customerCart(quantity);
const helpCode = (cartToken: string, order?: unknown) => h.helpCode(cartToken, order);
const quantities = (id: string) => h.quantities(id);
const holdNextCartRead = () => h.holdNextCartRead();

describe('links and refreshes that finish out of order', () => {
  /** The previous test's call, ended here: three live calls may be open at once. */
  let previous: { id: string; key: string } | null = null;
  const newCall = async () => {
    if (previous) {
      const ended = await fetch(`${h.desk.server.url}/api/live-calls/${previous.id}/end`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Live-Call-Key': previous.key },
        body: '{}',
      });
      expect(ended.status).toBe(202);
    }
    const started = await post<{ call: CallView; key: string }>('/api/live-calls', { name: 'Race' });
    previous = { id: started.body.call.id, key: started.body.key };
    return previous.id;
  };

  it('a refresh of the old link that ends after a new code was linked does not bring the old cart back', async () => {
    const id = await newCall();
    const [first, second] = await Promise.all([customerCart(1), customerCart(2)]);
    expect((await post(`/api/calls/${id}/storefront`, { code: await helpCode(first) })).status).toBe(200);
    const secondCode = await helpCode(second);
    const held = holdNextCartRead();
    const refresh = post<Linked>(`/api/calls/${id}/storefront/refresh`);
    await held.reached;
    const linked = await post<Linked>(`/api/calls/${id}/storefront`, { code: secondCode });
    expect(linked.status).toBe(200);
    expect(linked.body.cart?.cart?.items.map((i) => i.quantity)).toEqual([2]);
    held.release();
    const late = await refresh;
    // The late refresh read the first customer's cart; what the call keeps is the second one's.
    expect(late.body.cart?.cart?.items.map((i) => i.quantity)).toEqual([2]);
    expect(await quantities(id)).toEqual([2]);
    // And the link it keeps is the second customer's: a refresh now reads their cart.
    const again = await post<Linked>(`/api/calls/${id}/storefront/refresh`);
    expect(again.body.cart?.cart?.items.map((i) => i.quantity)).toEqual([2]);
  });

  it('a code read while the old link is refreshed replaces it all the same', async () => {
    const id = await newCall();
    const [first, second] = await Promise.all([customerCart(14), customerCart(15)]);
    expect((await post(`/api/calls/${id}/storefront`, { code: await helpCode(first) })).status).toBe(200);
    const secondCode = await helpCode(second);
    const held = holdNextCartRead();
    const linking = post<Linked>(`/api/calls/${id}/storefront`, { code: secondCode });
    await held.reached;
    // Read after the new code's read began, stored before it: the old link's snapshot is the later read.
    const refreshed = await post<Linked>(`/api/calls/${id}/storefront/refresh`);
    expect(refreshed.body.cart?.cart?.items.map((i) => i.quantity)).toEqual([14]);
    held.release();
    const linked = await linking;
    expect(linked.status).toBe(200);
    expect(linked.body.cart?.cart?.items.map((i) => i.quantity)).toEqual([15]);
    expect(await quantities(id)).toEqual([15]);
    // What the call shows is its newest read, so an open page (which keeps the newest) shows it too.
    expect(linked.body.cart!.readAt > refreshed.body.cart!.readAt).toBe(true);
  });

  it('a code linked first but read last does not replace the code linked after it', async () => {
    const id = await newCall();
    const [first, second] = await Promise.all([customerCart(3), customerCart(4)]);
    const [firstCode, secondCode] = [await helpCode(first), await helpCode(second)];
    const held = holdNextCartRead();
    const slow = post<{ error: { code: string } }>(`/api/calls/${id}/storefront`, { code: firstCode });
    await held.reached;
    expect((await post(`/api/calls/${id}/storefront`, { code: secondCode })).status).toBe(200);
    held.release();
    const late = await slow;
    expect([late.status, late.body.error?.code]).toEqual([409, 'link_superseded']);
    expect(await quantities(id)).toEqual([4]);
    const again = await post<Linked>(`/api/calls/${id}/storefront/refresh`);
    expect(again.body.cart?.cart?.items.map((i) => i.quantity)).toEqual([4]);
  });
});

describe('a call that changes while its cart is read', () => {
  it('is announced as it is now, not as it was when the link began', async () => {
    const code = await helpCode(await customerCart(7));
    const tab = await listen(h.desk);
    try {
      const held = holdNextCartRead();
      const linking = post<Linked>(`/api/calls/${h.callId}/storefront`, { code });
      await held.reached;
      const ended = await fetch(`${h.desk.server.url}/api/live-calls/${h.callId}/end`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Live-Call-Key': h.liveKey },
        body: '{}',
      });
      expect(ended.status).toBe(202);
      const status = ((await ended.json()) as { call: CallView }).call.status;
      expect(status).not.toBe('live');
      held.release();
      const linked = await linking;
      expect(linked.status).toBe(200);
      const readAt = linked.body.cart?.readAt;
      expect(linked.body.call.status).not.toBe('live');
      for (let i = 0; i < 100 && !tab.of('call-status').some((c) => c.storefront?.readAt === readAt); i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const announced = tab.of('call-status').filter((c: CallView) => c.storefront?.readAt === readAt);
      expect(announced).toHaveLength(1);
      expect(announced[0].status).not.toBe('live');
    } finally {
      tab.close();
    }
  });
});

describe('two agents and two customers at once', () => {
  it('links one code to one call only, and each call shows its own customer’s cart', async () => {
    const other = (await post<{ call: CallView }>('/api/live-calls', { name: 'Second agent' })).body.call.id;
    expect(other).toBeTruthy();
    const shared = await helpCode(await customerCart(10));
    const both = await Promise.all([
      post<Linked>(`/api/calls/${h.callId}/storefront`, { code: shared }),
      post<Linked>(`/api/calls/${other}/storefront`, { code: shared }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const [winner, loser] = both[0]!.status === 200 ? [h.callId, other] : [other, h.callId];
    expect(await quantities(winner)).toEqual([10]);
    expect(await quantities(loser)).not.toEqual([10]);

    const [mine, theirs] = await Promise.all([customerCart(12), customerCart(13)]);
    const [mineCode, theirsCode] = [await helpCode(mine), await helpCode(theirs)];
    const linked = await Promise.all([
      post<Linked>(`/api/calls/${h.callId}/storefront`, { code: mineCode }),
      post<Linked>(`/api/calls/${other}/storefront`, { code: theirsCode }),
    ]);
    expect(linked.map((r) => r.status)).toEqual([200, 200]);
    expect(await quantities(h.callId)).toEqual([12]);
    expect(await quantities(other)).toEqual([13]);
    const refreshed = await Promise.all(
      [h.callId, other].map((id) => post<Linked>(`/api/calls/${id}/storefront/refresh`)),
    );
    expect(refreshed.map((r) => r.body.cart?.cart?.items.map((i) => i.quantity))).toEqual([[12], [13]]);
  });
});

describe('a flood of help requests', () => {
  it('costs no customer the code they were given', async () => {
    const code = await helpCode(await customerCart(6));
    const statuses: number[] = [];
    // More than the codes held at once (10,000), a hundred at a time.
    for (let sent = 0; sent < 10_100; sent += 100) {
      const batch = await Promise.all(
        Array.from({ length: 100 }, () =>
          fetch(`${h.desk.server.url}/api/storefront/help`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ cart_token: `flood.${sent}`, order: null }),
          }).then(async (res) => {
            await res.arrayBuffer();
            return res.status;
          }),
        ),
      );
      statuses.push(...batch);
    }
    expect(statuses.every((status) => status === 201 || status === 429)).toBe(true);
    // A minute's codes, and a minute's codes times their lifetime fit in what the desk holds.
    expect(statuses.filter((status) => status === 201).length).toBeLessThan(DEFAULT_CODES_PER_MINUTE);
    expect(DEFAULT_CODES_PER_MINUTE * (DEFAULT_CODE_TTL_MS / 60_000)).toBeLessThan(DEFAULT_MAX_CODES);
    const linked = await post<Linked>(`/api/calls/${h.callId}/storefront`, { code });
    expect(linked.status).toBe(200);
    expect(linked.body.cart?.cart?.items.map((i) => i.quantity)).toEqual([6]);
  });
});

describe('the call’s cart link under hostile timing', () => {
  it('counts guesses that arrive together against the same limit as guesses sent one by one', async () => {
    const other = h.callId;
    const { port } = new URL(h.desk.server.url);
    // Each guess on its own connection, its body short of the last byte until every one is in: then the
    // desk reads all of them at once, as it would under a burst from many clients.
    const sockets = await Promise.all(
      Array.from({ length: 120 }, async () => {
        const body = JSON.stringify({ code: String(randomInt(0, 1_000_000)).padStart(6, '0') });
        const socket = connect(Number(port), '127.0.0.1');
        await once(socket, 'connect');
        let answer = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => {
          answer += chunk;
        });
        const ended = once(socket, 'end').then(() => answer);
        socket.write(
          `POST /api/calls/${other}/storefront HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
            `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, -1)}`,
        );
        return { socket, last: body.slice(-1), ended };
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const s of sockets) s.socket.write(s.last);
    const statuses = (await Promise.all(sockets.map((s) => s.ended))).map((text) =>
      Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1]),
    );
    const looked = statuses.filter((status) => status !== 429);
    expect(looked.every((status) => status === 404)).toBe(true);
    // DEFAULT_REFUSALS_PER_MINUTE (30): the codes looked at this minute, however the guesses arrive.
    expect(looked.length).toBeLessThanOrEqual(30);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(90);
  });
});

describe('everything this file made the desk say', () => {
  it('holds no cart token, order key or billing email: answers, events and log lines', () => {
    expectNoSecrets(h, /hostile\.shopper/);
  });
});
