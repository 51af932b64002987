import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readWavFormat, wavDuration } from '../engine/audio.js';
import { type SpeechVoice, synthesizeSpeech } from '../speech.js';

const run = promisify(execFile);

export interface ConversationTurn {
  voice: SpeechVoice;
  text: string;
  /** With `channels`: the channel (1-based) this turn is heard on; the others are silent meanwhile. */
  channel?: number;
}

export interface Conversation {
  path: string;
  /** Where each turn is in the audio (ms), silence after it included, so the turns cover the whole file. */
  turns: (ConversationTurn & { start: number; end: number })[];
  /** Removes the audio and its directory. */
  dispose(): Promise<void>;
}

/** Silence after each turn: longer than a diarizer's turn pause, as between two people taking turns. */
const TURN_GAP_SECONDS = 0.6;

/**
 * Speaks a conversation with flite (one voice per turn) into one 16 kHz WAV file, with the true turn times, for
 * diarization tests, demos and the accuracy bench. With `channels`, a multichannel file where each turn is on its
 * own channel. Needs flite and sox.
 */
export async function synthesizeConversation(
  turns: readonly ConversationTurn[],
  options: { channels?: number } = {},
): Promise<Conversation> {
  const dir = await mkdtemp(join(tmpdir(), 'x-sandbox-conversation-'));
  const dispose = () => rm(dir, { recursive: true, force: true });
  try {
    const channels = options.channels ?? 1;
    const parts: string[] = [];
    const timed: Conversation['turns'] = [];
    let at = 0;
    for (const [i, turn] of turns.entries()) {
      const spoken = await synthesizeSpeech(turn.text, {
        voice: turn.voice,
        path: join(dir, `spoken-${i}.wav`),
      });
      const part = join(dir, `turn-${i}.wav`);
      // remix puts the voice on its channel and "0" (silence) on every other one.
      const remix = Array.from({ length: channels }, (_, c) => (c + 1 === (turn.channel ?? 1) ? '1' : '0'));
      await run('sox', [
        spoken,
        '-r',
        '16000',
        '-b',
        '16',
        part,
        'remix',
        ...remix,
        'pad',
        '0',
        String(TURN_GAP_SECONDS),
      ]);
      const format = await readWavFormat(part);
      const ms = Math.round((format ? wavDuration(format) : 0) * 1000);
      timed.push({ ...turn, start: at, end: at + ms });
      at += ms;
      parts.push(part);
    }
    const path = join(dir, 'conversation.wav');
    await run('sox', [...parts, path]);
    return { path, turns: timed, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** The turn a word was said in: the one holding the middle of its span. */
export function turnAt<T extends { start: number; end: number }>(
  turns: readonly T[],
  word: { start: number; end: number },
): T | undefined {
  const middle = (word.start + word.end) / 2;
  return turns.find((turn) => middle >= turn.start && middle < turn.end);
}
