/**
 * Clients that hang up mid-body are not sandbox failures. The CLI as a real child process gets requests that
 * declare `Content-Length: 1000`, send 5 bytes and end (half-closed or reset); its stderr stays free of
 * "failed" lines (the shape of a handler failure report) and it answers the next request.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REALTIME_DEV_APP, TRANSCRIPTION_DEV_KEY } from '../../src/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const child = spawn(
  process.execPath,
  ['--import', 'tsx', 'src/cli.ts', '--port', '0', '--transcription', '--realtime'],
  { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
);
let stderr = '';
child.stderr.on('data', (c: Buffer) => {
  stderr += c.toString();
});
let url: URL;

beforeAll(async () => {
  let stdout = '';
  url = await new Promise<URL>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(stdout);
      if (m && stdout.includes('Ctrl+C to stop.')) resolve(new URL(m[1]!));
    });
    child.on('exit', () => reject(new Error(`exited early:\n${stdout}${stderr}`)));
  });
});
afterAll(() => {
  child.kill('SIGKILL');
});

/**
 * Sends the head of a request and 5 of its 1,000 declared body bytes, then hangs up: `end` half-closes (the
 * server may still answer), `reset` destroys the socket. Resolves once the connection is gone on both sides.
 */
function hangUp(method: string, path: string, headers: string, how: 'end' | 'reset'): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write(
        `${method} ${path} HTTP/1.1\r\nHost: ${url.host}\r\n${headers}Content-Length: 1000\r\n\r\n{"a":`,
      );
      if (how === 'end') socket.end();
      else socket.resetAndDestroy();
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve());
    socket.resume();
  });
}

const routes: [string, string][] = [
  [`/apps/${REALTIME_DEV_APP.appId}/batch_events`, 'Content-Type: application/json\r\n'],
  [`/apps/${REALTIME_DEV_APP.appId}/events`, 'Content-Type: application/json\r\n'],
  ['/v2/transcript', `Authorization: ${TRANSCRIPTION_DEV_KEY}\r\nContent-Type: application/json\r\n`],
  ['/v2/upload', `Authorization: ${TRANSCRIPTION_DEV_KEY}\r\n`],
];

it('hang-ups mid-body log nothing, and the server answers afterwards', async () => {
  for (const how of ['end', 'reset'] as const) {
    for (const [path, headers] of routes) await hangUp('POST', path, headers, how);
  }
  // Answered requests on fresh connections: each hang-up before them has been handled by now.
  const transcripts = await fetch(`${url}v2/transcript`, {
    headers: { authorization: TRANSCRIPTION_DEV_KEY },
  });
  expect(transcripts.status).toBe(200);
  expect(((await transcripts.json()) as { transcripts: unknown[] }).transcripts).toEqual([]);
  const channels = await fetch(`${url}apps/${REALTIME_DEV_APP.appId}/channels`);
  expect(channels.status).toBe(401); // unsigned, so refused: but answered
  await channels.arrayBuffer();
  expect(stderr.split('\n').filter((line) => /failed/.test(line))).toEqual([]);
  expect(child.exitCode).toBeNull();
});
