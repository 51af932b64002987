/**
 * `x-sandbox --realtime --realtime-watchlist --realtime-authorized-connections` as a user runs it: watchlist
 * events reach a signed-in socket of the dev app, and either switch without `--realtime` is a usage error
 * naming the flag. (The authorized-connections window is 30 s from the CLI; its behaviour is tested in process,
 * with a short window, in realtime-authorized-connections.test.ts.)
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { REALTIME_DEV_APP } from '../../src/index.js';
import { TestSocket } from '../helpers/realtime.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const args = ['--import', 'tsx', 'src/cli.ts', '--port', '0', '--realtime'];
const child = spawn(
  process.execPath,
  [...args, '--realtime-watchlist', '--realtime-authorized-connections'],
  {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
afterAll(() => {
  child.kill('SIGKILL');
});

function wsUrl(): Promise<string> {
  let stdout = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no startup block in 20 s:\n${stdout}`)), 20_000);
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      const url = /WebSocket URL\s+(ws:\/\/\S+)/.exec(stdout)?.[1];
      if (url && stdout.includes('Ctrl+C to stop.')) {
        clearTimeout(timer);
        resolve(url.replace(/\/app\/.*$/, ''));
      }
    });
    child.on('exit', () => reject(new Error(`exited early:\n${stdout}`)));
  });
}

async function signin(base: string, user: Record<string, unknown>): Promise<TestSocket> {
  const s = await TestSocket.connect(base, REALTIME_DEV_APP.key);
  const userData = JSON.stringify(user);
  const sig = createHmac('sha256', REALTIME_DEV_APP.secret)
    .update(`${s.socketId}::user::${userData}`)
    .digest('hex');
  s.send({ event: 'pusher:signin', data: { auth: `${REALTIME_DEV_APP.key}:${sig}`, user_data: userData } });
  await s.next('pusher:signin_success');
  return s;
}

it('the dev app sends watchlist events when started with --realtime-watchlist', async () => {
  const base = await wsUrl();
  const watcher = await signin(base, { id: 'cli-a', watchlist: ['cli-b'] });
  const initial = await watcher.next('pusher_internal:watchlist_events', 5000);
  expect(initial.data).toEqual({ events: [{ name: 'offline', user_ids: ['cli-b'] }] });
  const watched = await signin(base, { id: 'cli-b' });
  const online = await watcher.next((f) => f !== initial && f.event === 'pusher_internal:watchlist_events');
  expect(online.data).toEqual({ events: [{ name: 'online', user_ids: ['cli-b'] }] });
  watcher.close();
  watched.close();
});

it('either switch without --realtime is a usage error naming it', () => {
  for (const flag of ['--realtime-watchlist', '--realtime-authorized-connections']) {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', '--port', '0', flag], {
      cwd: root,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`${flag} configures the realtime emulator: add --realtime`);
  }
});
