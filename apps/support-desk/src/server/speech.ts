import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Text to speech with what the machine has: flite (with its 16 kHz voice, which recognisers read far
 * better than its default 8 kHz one) or espeak-ng. Nothing is installed by the app.
 */
export interface SpeechTool {
  name: 'flite' | 'espeak-ng';
  args(text: string, out: string): string[];
}

const TOOLS: SpeechTool[] = [
  { name: 'flite', args: (text, out) => ['-voice', 'kal16', '-t', text, '-o', out] },
  { name: 'espeak-ng', args: (text, out) => ['-w', out, text] },
];

export const SPEECH_MISSING =
  'No speech synthesiser found: install flite or espeak-ng (Debian: apt-get install flite) to generate sample calls, or upload a recording.';

function run(
  command: string,
  args: string[],
  timeoutMs: number,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: timeoutMs });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ code: error.code === 'ENOENT' ? -1 : null, stderr: error.message }),
    );
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** The first synthesiser that runs here, or null; asked once per server. */
export async function findSpeechTool(candidates: readonly SpeechTool[] = TOOLS): Promise<SpeechTool | null> {
  for (const tool of candidates) {
    const { code } = await run(tool.name, ['--version'], 5000);
    if (code !== -1) return tool;
  }
  return null;
}

/** Speaks `text` into a new WAV file and resolves its path. */
export async function synthesize(tool: SpeechTool, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'support-desk-sample-'));
  const out = join(dir, 'sample-call.wav');
  const { code, stderr } = await run(tool.name, tool.args(text, out), 30_000);
  if (code !== 0) throw new Error(`${tool.name} failed (exit ${code}): ${stderr.trim().slice(0, 200)}`);
  return out;
}
