/** `x-sandbox --realtime` as a user runs it: the banner's realtime block, and a socket to the printed URL. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { REALTIME_DEV_APP } from '../../src/index.js';
import { TestSocket } from '../helpers/realtime.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', '--port', '0', '--realtime'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'pipe'],
});
afterAll(() => {
  child.kill('SIGKILL');
});

function banner(): Promise<string> {
  let stdout = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no startup block in 20 s:\n${stdout}`)), 20_000);
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (stdout.includes('Ctrl+C to stop.')) {
        clearTimeout(timer);
        resolve(stdout);
      }
    });
    child.on('exit', () => reject(new Error(`exited early:\n${stdout}`)));
  });
}

it('prints the dev app and a WebSocket URL that connects', async () => {
  const out = await banner();
  expect(out).toContain(`app id            ${REALTIME_DEV_APP.appId}`);
  expect(out).toContain(`key               ${REALTIME_DEV_APP.key}`);
  expect(out).toContain(`secret            ${REALTIME_DEV_APP.secret}`);
  const url = /WebSocket URL\s+(ws:\/\/\S+)/.exec(out)![1]!;
  const socket = new TestSocket(url);
  await expect(socket.next('pusher:connection_established', 5000)).resolves.toBeTruthy();
  socket.close();
});
