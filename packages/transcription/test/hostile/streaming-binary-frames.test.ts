/**
 * Hostile review of the streaming transcriber (issue 18): a binary frame from the service, on a WHATWG
 * WebSocket (browsers, Deno, Node's global one; here undici's, which Node's is). Those deliver binary
 * frames as a Blob unless `binaryType` says otherwise, and the transcriber decoded every non-string frame
 * with TextDecoder, which throws on a Blob: an uncaught TypeError in the socket's message handler (in Node,
 * an uncaughtException), and the frame lost. Under `ws` the same frame is read as text.
 */
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { StreamingTranscriber, type TurnEvent } from '../../src/streaming/index.js';

// undici is not a dependency of @x/transcription: borrowed from @x/core, whose tests use it.
const { WebSocket: WhatwgWebSocket } = createRequire(new URL('../../../core/package.json', import.meta.url))(
  'undici',
) as { WebSocket: new (url: string) => never };

const turn = (turn_order: number) => ({
  type: 'Turn',
  turn_order,
  turn_is_formatted: false,
  end_of_turn: false,
  transcript: '',
  end_of_turn_confidence: 0,
  words: [{ text: `w${turn_order}`, start: 0, end: 100, confidence: 1, word_is_final: false }],
});

let wss: WebSocketServer;
let base: string;

beforeAll(async () => {
  wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  wss.on('connection', (ws: WebSocket) => {
    ws.send(JSON.stringify({ type: 'Begin', id: 'binary', expires_at: 1 }));
    ws.send(Buffer.from(JSON.stringify(turn(0))), { binary: true });
    ws.send(JSON.stringify(turn(1)));
  });
  await new Promise((resolve) => wss.once('listening', resolve));
  base = `http://127.0.0.1:${(wss.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const ws of wss.clients) ws.terminate();
  await new Promise((resolve) => wss.close(resolve));
});

it('a binary frame on a WHATWG WebSocket is read as text, as under ws, not thrown on', async () => {
  const transcriber = new StreamingTranscriber(
    { speech_model: 'universal-streaming-english', sample_rate: 16000 },
    { getToken: () => 'hostile-token', baseUrl: base, webSocketFactory: (url) => new WhatwgWebSocket(url) },
  );
  const turns: TurnEvent[] = [];
  const second = new Promise<void>((resolve) =>
    transcriber.on('turn', (t) => {
      turns.push(t);
      if (t.turn_order === 1) resolve();
    }),
  );
  await transcriber.connect();
  await second;
  await transcriber.close({ waitForTermination: false });
  expect(turns.map((t) => t.words[0]?.text)).toEqual(['w0', 'w1']);
});
