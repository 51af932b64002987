import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findSpeechTool, synthesize } from '../../src/server/speech.js';

/** Samples in a WAV file, as sox reads it. */
const samples = (path: string) => Number(execFileSync('soxi', ['-s', path]).toString().trim());
const rate = (path: string) => Number(execFileSync('soxi', ['-r', path]).toString().trim());

describe('a sample call in two voices', () => {
  it('speaks each line in its speaker’s flite voice and joins them with 0.6 s between turns', async () => {
    const tool = await findSpeechTool();
    expect(tool?.name).toBe('flite');
    expect(tool!.args('hi', 'o.wav', 'agent')).toEqual(['-voice', 'slt', '-t', 'hi', '-o', 'o.wav']);
    expect(tool!.args('hi', 'o.wav', 'customer')).toEqual(['-voice', 'kal16', '-t', 'hi', '-o', 'o.wav']);
    const out = await synthesize(tool!, [
      { speaker: 'agent', text: 'Thank you for calling.' },
      { speaker: 'customer', text: 'My order arrived broken.' },
      { speaker: 'agent', text: 'I am sorry.' },
    ]);
    const dir = dirname(out);
    const parts = readdirSync(dir)
      .filter((f) => f.startsWith('line-'))
      .sort()
      .map((f) => join(dir, f));
    expect(parts).toHaveLength(3);
    expect(rate(out)).toBe(16_000);
    const gap = samples(join(dir, 'gap.wav'));
    expect(gap).toBe(0.6 * 16_000);
    expect(samples(out)).toBe(parts.reduce((n, p) => n + samples(p), 0) + 2 * gap);
    await rm(dir, { recursive: true });
  });

  it('speaks a plain text as one customer, without sox', async () => {
    const tool = (await findSpeechTool())!;
    const out = await synthesize(tool, 'Hello.');
    expect(readdirSync(dirname(out))).toEqual(['sample-call.wav']);
    expect(samples(out)).toBeGreaterThan(0);
    await rm(dirname(out), { recursive: true });
  });
});
