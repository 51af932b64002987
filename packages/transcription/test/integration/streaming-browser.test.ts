import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox } from '../helpers/sandbox.js';

/*
 * `@x/transcription/streaming` as a browser gets it: the build bundled by esbuild for the browser platform
 * (so the `#websocket` import map resolves to its web side), run in a child Node process whose only
 * WebSocket is a global one, as in a page. It must hold no `ws` and no `node:` module, refuse an API key,
 * and run a session with tokens from `getToken`.
 */

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const esbuild = join(root, 'node_modules/.bin/esbuild');
const wsPath = createRequire(join(root, 'package.json')).resolve('ws');

let box: Awaited<ReturnType<typeof sandbox>>;
let dir: string;
let bundle: string;

beforeAll(async () => {
  box = await sandbox({ streaming: { newSessionsPerMinute: false } });
  dir = await mkdtemp(join(tmpdir(), 'streaming-browser-'));
  const out = join(dir, 'streaming.browser.mjs');
  await run(esbuild, [
    join(root, 'dist/streaming.js'),
    '--bundle',
    '--platform=browser',
    '--format=esm',
    `--outfile=${out}`,
  ]);
  bundle = await readFile(out, 'utf8');
});
afterAll(async () => {
  await box?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the streaming entry in a browser bundle', () => {
  it('holds neither ws nor a node: module', () => {
    expect(bundle).not.toMatch(/from ["']ws["']|require\(["']ws["']\)|["']node:/);
    expect(bundle).not.toContain('node_modules/ws/');
  });

  it('refuses an API key, and runs a session with getToken on the global WebSocket', async () => {
    const script = join(dir, 'page.mjs');
    await writeFile(
      script,
      `
      import WebSocket from ${JSON.stringify(wsPath)};
      globalThis.WebSocket = WebSocket;
      const { StreamingTranscriber } = await import(${JSON.stringify(join(dir, 'streaming.browser.mjs'))});
      const params = { speech_model: 'u3-rt-pro', sample_rate: 16000 };
      const base = ${JSON.stringify(box.url)};
      const out = {};
      const keyed = new StreamingTranscriber(params, { baseUrl: base, apiKey: 'a-key-that-must-not-travel' });
      out.keyed = await keyed.connect().then(() => 'connected', (e) => e.name + ': ' + e.message);
      let tokens = 0;
      const live = new StreamingTranscriber(params, {
        baseUrl: base,
        getToken: async () => {
          tokens++;
          const r = await fetch(base + '/v3/token?expires_in_seconds=60', { headers: { authorization: ${JSON.stringify(box.transcription.apiKey)} } });
          return r.json();
        },
      });
      out.begin = (await live.connect()).type;
      out.sent = live.sendAudio(new Int16Array(16000));
      out.termination = (await live.close())?.type;
      out.tokens = tokens;
      console.log(JSON.stringify(out));
      `,
    );
    const { stdout } = await run(process.execPath, [script], { timeout: 30_000 });
    const out = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(out.keyed).toMatch(/^ValidationError: .*apiKey: cannot be used here/);
    expect(out.keyed).not.toContain('a-key-that-must-not-travel');
    expect(out).toMatchObject({ begin: 'Begin', sent: true, termination: 'Termination', tokens: 1 });
  });
});
