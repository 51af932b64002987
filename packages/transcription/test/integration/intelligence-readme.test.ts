/**
 * The README's speech-understanding example runs as printed, in its own process, against the sandbox: a
 * two-voice call.wav (flite slt for the agent, kal16 for the customer) in the working directory, the block
 * after a preamble that makes the `client` the README's earlier sections make. What it prints is checked
 * against the comments the README prints beside it.
 */
import { execFile } from 'node:child_process';
import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type Conversation, synthesizeConversation } from '@x/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sandbox } from '../helpers/sandbox.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const source = fileURLToPath(new URL('../../src/index.ts', import.meta.url));

let box: Awaited<ReturnType<typeof sandbox>>;
let conversation: Conversation;

beforeAll(async () => {
  box = await sandbox();
  conversation = await synthesizeConversation([
    { voice: 'slt', text: 'Thank you for calling the support desk. How can I help you today?' },
    { voice: 'kal16', text: 'My order arrived broken. Please send me a new one.' },
    { voice: 'slt', text: 'I am sorry. I will send you a replacement today.' },
  ]);
});
afterAll(async () => {
  await box?.transcription.idle();
  await box?.close();
  await conversation?.dispose();
});

it("the README's multi-task speech_understanding example runs and prints each task's answer", async () => {
  const readme = await readFile(`${root}README.md`, 'utf8');
  const block = /### Speech understanding\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block).toBeDefined();
  expect(block).toContain('speech_understanding');
  const cwd = dirname(conversation.path);
  await copyFile(conversation.path, join(cwd, 'call.wav'));
  // The process starts in the package (so tsx resolves) and moves to call.wav's directory, as a user's would.
  const preamble = [
    `import { TranscriptionClient } from ${JSON.stringify(source)};`,
    `process.chdir(${JSON.stringify(cwd)});`,
    `const client = new TranscriptionClient(${JSON.stringify({ apiKey: box.transcription.apiKey, baseUrl: box.url })});`,
  ].join('\n');
  const file = `${root}test/integration/.readme-speech-understanding-${process.pid}.ts`;
  await writeFile(file, `${preamble}\n${block}`);
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', file], {
      cwd: root,
      timeout: 80_000,
    });
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe("{ A: 'agent', B: 'customer' }");
    const sections = lines.filter((l) => /^\d+-\d+ ms /.test(l));
    expect(sections.length).toBeGreaterThan(0);
    const items = lines.filter((l) => l.includes(' <- '));
    // "Please send me a new one" and "I will send you a replacement today" are the follow-ups.
    expect(items).toContainEqual(expect.stringMatching(/ <- Please send me a new one\.$/));
    expect(items).toContainEqual(expect.stringMatching(/ <- .*I will send you a replacement today\.$/));
    expect(lines.length).toBe(1 + sections.length + items.length);
  } finally {
    await rm(file, { force: true });
  }
}, 90_000);
