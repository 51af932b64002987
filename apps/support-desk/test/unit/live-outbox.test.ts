import { describe, expect, it } from 'vitest';
import type { LiveTurnInput } from '../../src/shared/api.js';
import { TurnOutbox } from '../../src/web/live-outbox.js';

const turn = (turn_order: number, text: string, end_of_turn = false): LiveTurnInput => ({
  turn_order,
  end_of_turn,
  turn_is_formatted: false,
  text,
});

/** A `send` that the test answers request by request. */
function server() {
  const requests: { turns: LiveTurnInput[]; answer(error?: unknown): void }[] = [];
  let arrived: () => void = () => {};
  return {
    requests,
    send: (turns: LiveTurnInput[]) =>
      new Promise<void>((resolve, reject) => {
        requests.push({ turns, answer: (error) => (error ? reject(error) : resolve()) });
        arrived();
      }),
    async next(): Promise<(typeof requests)[number]> {
      const count = requests.length;
      while (requests.length === count) await new Promise<void>((r) => (arrived = r));
      return requests.at(-1)!;
    },
  };
}

describe('TurnOutbox', () => {
  it('sends one request at a time; what waited goes together, finals in order and only the latest partial', async () => {
    const s = server();
    const outbox = new TurnOutbox({
      send: s.send,
      onError: (e) => expect.fail(String(e)),
      partialSpacingMs: 0,
    });
    const first = s.next();
    outbox.push(turn(0, 'a'));
    await first;
    outbox.push(turn(0, 'a b'));
    outbox.push(turn(0, 'a b c', true));
    outbox.push(turn(1, 'd'));
    outbox.push(turn(1, 'd e'));
    outbox.push(turn(1, 'd e f', true));
    outbox.push(turn(2, 'g'));
    expect(s.requests).toHaveLength(1);
    const second = s.next();
    s.requests[0]!.answer();
    (await second).answer();
    await outbox.flush();
    expect(s.requests.map((r) => r.turns.map((t) => t.text))).toEqual([['a'], ['a b c', 'd e f', 'g']]);
  });

  it('waits out a 429 and sends the batch again, with the newest partial instead of the old one', async () => {
    const s = server();
    const errors: unknown[] = [];
    const outbox = new TurnOutbox({ send: s.send, onError: (e) => errors.push(e), partialSpacingMs: 0 });
    let next = s.next();
    outbox.push(turn(0, 'w'));
    const first = await next;
    outbox.push(turn(0, 'w x', true));
    outbox.push(turn(1, 'y'));
    next = s.next();
    first.answer();
    const limited = await next;
    next = s.next();
    limited.answer({ status: 429, retryAfterMs: 20 });
    outbox.push(turn(1, 'y z'));
    const retried = await next;
    next = s.next();
    retried.answer();
    (await next).answer();
    await outbox.flush();
    expect(errors).toEqual([]);
    expect(s.requests.map((r) => r.turns.map((t) => t.text))).toEqual([
      ['w'],
      ['w x', 'y'],
      ['w x'],
      ['y z'],
    ]);
  });

  it('reports a refused batch and goes on; gives up on a network failure after its tries', async () => {
    const s = server();
    const errors: unknown[] = [];
    const outbox = new TurnOutbox({
      send: s.send,
      onError: (e) => errors.push(e),
      partialSpacingMs: 0,
      tries: 2,
    });
    let next = s.next();
    outbox.push(turn(0, 'bad', true));
    outbox.push(turn(1, 'later', true));
    const refused = { status: 400, message: 'invalid' };
    (await next).answer(refused);
    next = s.next();
    const down = { status: 0 };
    (await next).answer(down);
    next = s.next();
    (await next).answer(down);
    await outbox.flush();
    expect(errors).toEqual([refused, down]);
    expect(s.requests.map((r) => r.turns.map((t) => t.text))).toEqual([['bad'], ['later'], ['later']]);
  });
});
