/**
 * The arithmetic of streaming.bench.ts: word alignment against what was said, each block's
 * final turn and its latency from a session's log, and CPU time of this process and its children from /proc.
 */
import { readdir, readFile } from 'node:fs/promises';
import { normaliseWords } from '@x/sandbox';
import { type Block, BYTES_PER_MS } from './streaming-audio.js';
import type { SessionLog, SessionPlan } from './streaming-client.js';

/** A number for a table cell: `digits` decimals, `n/a` for NaN. */
export function fmt(value: number | undefined, digits = 0): string {
  return value !== undefined && Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

export interface Alignment {
  hits: number;
  substitutions: number;
  /** Words said and absent from the transcript: misheard as nothing, or lost. */
  deletions: number;
  /** Words in the transcript that were not said (a word heard twice counts here). */
  insertions: number;
}

/**
 * The minimum-edit alignment of the words heard against the words said (the one word error rate counts).
 * A misheard word is a substitution, so `deletions` counts only words that are missing.
 */
export function align(said: readonly string[], heard: readonly string[]): Alignment {
  const ref = normaliseWords(said.join(' '));
  const hyp = normaliseWords(heard.join(' '));
  const cost = Array.from({ length: ref.length + 1 }, (_, i) =>
    Array.from({ length: hyp.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= ref.length; i++) {
    for (let j = 1; j <= hyp.length; j++) {
      const same = ref[i - 1] === hyp[j - 1] ? 0 : 1;
      cost[i]![j] = Math.min(cost[i - 1]![j - 1]! + same, cost[i - 1]![j]! + 1, cost[i]![j - 1]! + 1);
    }
  }
  const out: Alignment = { hits: 0, substitutions: 0, deletions: 0, insertions: 0 };
  let i = ref.length;
  let j = hyp.length;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && cost[i]![j] === cost[i - 1]![j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1)) {
      if (ref[i - 1] === hyp[j - 1]) out.hits++;
      else out.substitutions++;
      i--;
      j--;
    } else if (i > 0 && cost[i]![j] === cost[i - 1]![j]! + 1) {
      out.deletions++;
      i--;
    } else {
      out.insertions++;
      j--;
    }
  }
  return out;
}

export interface BlockOutcome {
  block: number;
  /** From the hand-over of the block's last speech chunk to the first final turn after it, ms. */
  latencyMs: number | undefined;
  /** The words of the final turns that belong to this block. */
  words: string[];
}

/**
 * Each block of a session: its final turns are the ones whose last word ends within the block's audio
 * (by the turns' own word times, placed in the plan's audio), however late they came; its latency runs
 * from the hand-over of its last speech chunk to the first of them that came after it (a sentence split
 * in two turns ends with the second).
 */
export function blockOutcomes(log: SessionLog, plan: SessionPlan, blocks: readonly Block[]): BlockOutcome[] {
  const starts: number[] = [];
  let at = plan.leadMs;
  for (const b of plan.blocks) {
    starts.push(at);
    at += blocks[b]!.bytes / BYTES_PER_MS;
  }
  const positionOf = (ms: number) => Math.max(0, starts.filter((start) => start <= ms).length - 1);
  const finals = log.turns.filter((t) => t.final && t.endMs !== undefined);
  return plan.blocks.map((block, position) => {
    const end = log.speechEnds[position] ?? Number.POSITIVE_INFINITY;
    const mine = finals.filter((t) => positionOf(t.endMs!) === position);
    const after = mine.find((t) => t.t >= end);
    return {
      block,
      latencyMs: after ? after.t - end : undefined,
      words: mine.flatMap((t) => t.words ?? []),
    };
  });
}

const TICKS_PER_SECOND = 100; // USER_HZ: /proc/<pid>/stat times are in these

async function stat(pid: number | 'self'): Promise<string[] | undefined> {
  try {
    const text = await readFile(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // gone meanwhile
  }
}

/** utime + stime + cutime + cstime: the process and its children it has waited for. */
const ticksOf = (fields: string[]) => [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);

/**
 * CPU seconds used so far by this process, the children it reaped, and its live children (except
 * `exclude`): a cumulative count, so the difference of two readings is what was used between them, however
 * many children (the emulator's recogniser processes) started or ended in between.
 */
export async function cpuSeconds(exclude: ReadonlySet<number>): Promise<number> {
  let ticks = 0;
  for (const entry of await readdir('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid || exclude.has(pid)) continue;
    const fields = await stat(pid);
    if (fields && Number(fields[1]) === process.pid) ticks += ticksOf(fields);
  }
  const self = await stat('self');
  return (ticks + (self ? ticksOf(self) : 0)) / TICKS_PER_SECOND;
}
