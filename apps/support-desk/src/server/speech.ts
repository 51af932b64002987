import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SampleCallLine, SampleSpeaker } from './sample-call.js';

/**
 * Text to speech with what the machine has: flite (with its 16 kHz voices, which recognisers read far
 * better than its default 8 kHz one) or espeak-ng. Nothing is installed by the app.
 */
export interface SpeechTool {
  name: 'flite' | 'espeak-ng';
  /** The sample rate of what it writes (mono, 16-bit): the silence between lines is made to match. */
  rate: number;
  args(text: string, out: string, speaker: SampleSpeaker): string[];
}

/**
 * The agent speaks with flite's female `slt`, the customer with the male `kal16`: voices whose pitch differs
 * clearly, as two people on a call do, so a diarizer has something to tell apart.
 */
const FLITE_VOICES: Record<SampleSpeaker, string> = { agent: 'slt', customer: 'kal16' };
const ESPEAK_VOICES: Record<SampleSpeaker, string> = { agent: 'en+f3', customer: 'en+m3' };

const TOOLS: SpeechTool[] = [
  {
    name: 'flite',
    rate: 16_000,
    args: (text, out, speaker) => ['-voice', FLITE_VOICES[speaker], '-t', text, '-o', out],
  },
  {
    name: 'espeak-ng',
    rate: 22_050,
    args: (text, out, speaker) => ['-v', ESPEAK_VOICES[speaker], '-w', out, text],
  },
];

/** Silence between two speakers' lines, in seconds: a turn change, not a cut. */
const TURN_GAP_SECONDS = 0.6;

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

/**
 * Speaks each line in its speaker's voice and joins them with sox into one WAV file; resolves its path.
 * A plain text is one customer speaking. Without sox, only a single line can be spoken.
 */
export async function synthesize(
  tool: SpeechTool,
  script: string | readonly SampleCallLine[],
): Promise<string> {
  const lines: readonly SampleCallLine[] =
    typeof script === 'string' ? [{ speaker: 'customer', text: script }] : script;
  const dir = await mkdtemp(join(tmpdir(), 'support-desk-sample-'));
  const out = join(dir, 'sample-call.wav');
  try {
    await speak(tool, lines, dir, out);
  } catch (error) {
    // A voice or sox that failed leaves its parts behind; nobody else knows this directory.
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return out;
}

async function speak(
  tool: SpeechTool,
  lines: readonly SampleCallLine[],
  dir: string,
  out: string,
): Promise<void> {
  const parts: string[] = [];
  for (const [i, line] of lines.entries()) {
    const part = lines.length === 1 ? out : join(dir, `line-${i}.wav`);
    const { code, stderr } = await run(tool.name, tool.args(line.text, part, line.speaker), 30_000);
    if (code !== 0) throw new Error(`${tool.name} failed (exit ${code}): ${stderr.trim().slice(0, 200)}`);
    parts.push(part);
  }
  if (lines.length === 1) return;
  const gap = join(dir, 'gap.wav');
  const silence = [
    '-n',
    '-r',
    String(tool.rate),
    '-c',
    '1',
    '-b',
    '16',
    gap,
    'trim',
    '0',
    String(TURN_GAP_SECONDS),
  ];
  const made = await run('sox', silence, 30_000);
  const joined = parts.flatMap((part, i) => (i === 0 ? [part] : [gap, part]));
  const { code, stderr } = made.code === 0 ? await run('sox', [...joined, out], 30_000) : made;
  if (code === -1)
    throw new Error('sox is needed to join a two-voice sample call (Debian: apt-get install sox)');
  if (code !== 0) throw new Error(`sox failed (exit ${code}): ${stderr.trim().slice(0, 200)}`);
}
