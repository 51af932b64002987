import { describe, expect, it } from 'vitest';
import type { TurnEvent } from '../../src/schemas/streaming-messages.js';
import { StreamingError } from '../../src/streaming/errors.js';
import { TurnStream } from '../../src/streaming/turn-stream.js';

const turn = (order: number, final: boolean): TurnEvent => ({
  type: 'Turn',
  turn_order: order,
  turn_is_formatted: false,
  end_of_turn: final,
  transcript: `t${order}`,
  end_of_turn_confidence: final ? 1 : 0,
  words: [],
});

async function drain(stream: TurnStream): Promise<{ turns: TurnEvent[]; error?: unknown }> {
  const turns: TurnEvent[] = [];
  try {
    for await (const t of stream) turns.push(t);
  } catch (error) {
    return { turns, error };
  }
  return { turns };
}

describe('TurnStream (for await over turns)', () => {
  it('a reader that keeps up gets every turn in order, however many, and the end', async () => {
    const stream = new TurnStream(2);
    const reading = drain(stream);
    for (let i = 0; i < 10; i++) {
      stream.push(turn(i, true));
      // Turns come from socket messages, each its own task: the reader runs in between.
      await new Promise((resolve) => setImmediate(resolve));
    }
    stream.end();
    expect((await reading).turns.map((t) => t.turn_order)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('a slow reader loses partials first, never a final turn', async () => {
    const stream = new TurnStream(3);
    stream.push(turn(0, false));
    stream.push(turn(0, true));
    stream.push(turn(1, false));
    stream.push(turn(1, false));
    stream.push(turn(1, true));
    stream.end();
    const { turns, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(turns.filter((t) => t.end_of_turn).map((t) => t.turn_order)).toEqual([0, 1]);
    expect(turns.length).toBe(3);
  });

  it('ends with a StreamingError when final turns alone fill it, after what it holds', async () => {
    const stream = new TurnStream(2);
    for (let i = 0; i < 3; i++) stream.push(turn(i, true));
    stream.push(turn(3, true));
    const { turns, error } = await drain(stream);
    expect(turns.map((t) => t.turn_order)).toEqual([0, 1]);
    expect(error).toBeInstanceOf(StreamingError);
  });

  it('throws the transcriber failure to a waiting reader, and stops on break', async () => {
    const failing = new TurnStream(4);
    const reading = drain(failing);
    failing.end(new StreamingError('dropped'));
    expect((await reading).error).toBeInstanceOf(StreamingError);
    const stopped = new TurnStream(4);
    stopped.push(turn(0, true));
    for await (const _ of stopped) break;
    stopped.push(turn(1, true));
    expect(await stopped.next()).toEqual({ value: undefined, done: true });
  });
});
