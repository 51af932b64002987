/**
 * The loopback server of the transport benchmark, run in its own process (forked by
 * `transport.bench.ts`) so that its CPU time is not counted against the clients being measured.
 * Answers every request with the same ~1 KB transcript-like JSON object over keep-alive connections,
 * and reports its port to the parent over IPC.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const transcript = {
  id: 'tr_01HZX3K9Q4M7V2B8N6C5D1E0FA',
  object: 'transcript',
  status: 'completed',
  language: 'en',
  duration_ms: 184_230,
  created_at: '2025-05-14T09:21:07Z',
  completed_at: '2025-05-14T09:21:19Z',
  audio_url: 'https://media.example.com/uploads/2025/05/14/standup.m4a',
  confidence: 0.962,
  text: 'Good morning everyone. Yesterday I finished the retry budget and the rate limiter pause; today I am on the pagination helpers, and I have no blockers. Next, the webhooks verification.',
  words: Array.from({ length: 8 }, (_, i) => ({
    text: ['Good', 'morning', 'everyone.', 'Yesterday', 'I', 'finished', 'the', 'retry'][i],
    start_ms: i * 310,
    end_ms: i * 310 + 280,
    confidence: 0.9 + i / 100,
    speaker: 'A',
  })),
  metadata: { source: 'upload', team: 'platform' },
};
const body = Buffer.from(JSON.stringify(transcript));
let served = 0;

const server = createServer((request, response) => {
  // Drain any request body, then answer with the prepared bytes.
  request.resume();
  request.on('end', () => {
    served++;
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': body.length,
      'x-request-id': `req_${served}`,
    });
    response.end(body);
  });
});
server.keepAliveTimeout = 60_000;

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ port, bytes: body.length });
});

process.on('message', (message) => {
  if (message === 'stats') process.send?.({ served, cpu: process.cpuUsage() });
  if (message === 'close') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
