/**
 * The user-facing scripts run as a user would run them, against the sandbox's real speech recognition (needs
 * the Debian packages flite, pocketsphinx, pocketsphinx-en-us and sox).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { synthesizeSpeech, TRANSCRIPTION_DEV_KEY } from '@x/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sandbox } from '../helpers/sandbox.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const source = fileURLToPath(new URL('../../src/index.ts', import.meta.url));

/**
 * Runs a user-facing script in its own process (`import ... from '@x/transcription'`), against this
 * package's source rather than a `dist` that may be stale or missing.
 */
async function run(code: string, name: string, env: NodeJS.ProcessEnv): Promise<string> {
  const file = `${root}test/integration/.${name}-${process.pid}.ts`;
  await writeFile(file, code.replaceAll("from '@x/transcription'", `from ${JSON.stringify(source)}`));
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', file], {
      cwd: root,
      env,
      timeout: 80_000,
    });
    return stdout;
  } finally {
    await rm(file, { force: true });
  }
}

// Without a key the example starts a sandbox of its own instead of calling AssemblyAI.
const { ASSEMBLYAI_API_KEY: _key, ASSEMBLYAI_BASE_URL: _base, ...env } = process.env;

let box: Awaited<ReturnType<typeof sandbox>>;
beforeAll(async () => {
  box = await sandbox();
});
afterAll(() => box?.close());

it('examples/quickstart.ts runs end to end against a sandbox of its own', async () => {
  const stdout = await run(await readFile(`${root}examples/quickstart.ts`, 'utf8'), 'example', env);
  expect(stdout).toMatch(/^uploaded [1-9]\d* bytes$/m);
  expect(stdout).toMatch(/^status: (\w+ -> )*completed$/m);
  expect(stdout).toMatch(
    /^text: Hello\. My order number is 456\. The package arrived broken .*disappointed\.$/m,
  );
  expect(stdout).toMatch(/^sentiment: NEGATIVE \((0\.\d\d|1\.00)\) I am very angry and disappointed\.$/m);
  expect(stdout).toMatch(/^content safety: alcohol 0\.\d\d$/m);
  expect(stdout).toMatch(/^srt:\n1\n00:00:00,\d{3} --> 00:00:\d\d,\d{3}\nHello\. My order number is 456/m);
  expect(stdout).toMatch(/^word search "order": 1 found at \d+ ms$/m);
  expect(stdout).toMatch(/^recent: [0-9a-f-]{36} completed created \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/m);
  expect(stdout).toMatch(
    /^as expected: NotFoundError 400 transcript_not_found: Transcript lookup error, transcript id not found/m,
  );
}, 90_000);

it("the README's quick start runs as printed: node quickstart.mjs beside call.wav and the sandbox", async () => {
  const readme = await readFile(`${root}README.md`, 'utf8');
  const block = /## Quick start\n\n```js\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block).toBeDefined();
  // The README's own setup: a call.wav in the working directory, the sandbox's dev key (SANDBOX_URL only
  // says on which port), no ASSEMBLYAI_API_KEY.
  expect(box.transcription.apiKey).toBe(TRANSCRIPTION_DEV_KEY);
  const cwd = await mkdtemp(join(tmpdir(), 'x-quickstart-'));
  await synthesizeSpeech('my order number is four five six. thank you for your help.', {
    path: join(cwd, 'call.wav'),
  });
  // Next to this package's package.json, `@x/transcription` resolves to the package itself (its exports
  // map: dist/, as a user gets it).
  const file = `${root}test/integration/.quickstart-${process.pid}.mjs`;
  await writeFile(file, block!);
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [file], {
      cwd,
      env: { ...env, SANDBOX_URL: box.url },
      timeout: 80_000,
    });
    expect(stdout).toMatch(/^My order number is 456\. Thank you for your help\.$/m);
    expect(stdout).toMatch(/^NEUTRAL My order number is 456\.$/m);
    expect(stdout).toMatch(/^POSITIVE Thank you for your help\.$/m);
    expect(stdout).toMatch(/^1\n00:00:00,\d{3} --> /m);
  } finally {
    await rm(file, { force: true });
    await rm(cwd, { recursive: true, force: true });
  }
}, 90_000);

it('examples/streaming.ts streams a WAV live and prints the formatted final turn', async () => {
  const stdout = await run(await readFile(`${root}examples/streaming.ts`, 'utf8'), 'streaming', env);
  expect(stdout).toMatch(/^session [0-9a-f-]{36} began$/m);
  expect(stdout).toMatch(/^final turn 0: Hello\. My order number is 456\.$/m);
  expect(stdout).toMatch(/^partial turns: yes$/m);
  expect(stdout).toMatch(/^audio: [1-9]\d* s$/m);
}, 90_000);
