/**
 * The rows of streaming.bench.ts's tables, from the clients' logs: latency per client, the drop, and one
 * capacity step.
 */

import { percentile } from '../../../bench.tools.js';
import type { Block } from './streaming-audio.js';
import type { ClientKind, ClientResult, SessionLog, SessionPlan } from './streaming-client.js';
import { align, blockOutcomes } from './streaming-measure.js';

export const LABEL: Record<ClientKind, string> = { x: '@x/transcription', sdk: 'assemblyai SDK 4.41.5' };

export interface Failed {
  ok: false;
  kind: ClientKind;
  label: string;
  error: string;
}
export const failed = (kind: ClientKind, error: string): Failed => ({
  ok: false,
  kind,
  label: LABEL[kind],
  error,
});

export function latencyRow(
  kind: ClientKind,
  result: ClientResult,
  plan: SessionPlan,
  blocks: readonly Block[],
) {
  if (!result.ok) return failed(kind, result.error);
  const log = result.sessions[0]!;
  const outcomes = blockOutcomes(log, plan, blocks);
  const latencies = outcomes.flatMap((o) => (o.latencyMs === undefined ? [] : [o.latencyMs]));
  return {
    ok: true as const,
    kind,
    label: LABEL[kind],
    finals: latencies.length,
    expected: plan.blocks.length,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    max: percentile(latencies, 100),
    latencyByBlock: Object.fromEntries(outcomes.map((o) => [o.block, o.latencyMs ?? null])),
    deletionsByBlock: Object.fromEntries(
      outcomes.map((o) => [o.block, align([blocks[o.block]!.text], o.words).deletions]),
    ),
    errors: log.errors,
  };
}
export type LatencyRow = ReturnType<typeof latencyRow>;

/**
 * A drop run (or the control, fed from where ours replays): how soon turns came back, what the sentence
 * after the drop waited, and the words against what was said in the blocks from `from` on.
 */
export function dropRow(
  kind: ClientKind,
  label: string,
  result: ClientResult,
  plan: SessionPlan,
  blocks: Block[],
  base: LatencyRow | undefined,
  from = 0,
) {
  if (!result.ok) return { ...failed(kind, result.error), label };
  const log: SessionLog = result.sessions[0]!;
  const dropped = log.droppedAt;
  const since = (final: boolean) => {
    const next =
      dropped === undefined ? undefined : log.turns.find((t) => t.t > dropped && (!final || t.final));
    return dropped === undefined ? undefined : (next?.t ?? Number.NaN) - dropped;
  };
  const words = log.turns.flatMap((t) => t.words ?? []);
  const said = plan.blocks.slice(from);
  const aligned = align(
    said.map((b) => blocks[b]!.text),
    words,
  );
  const last = blockOutcomes(log, plan, blocks).at(-1)!;
  const lastBase = base?.ok ? base.latencyByBlock[last.block] : undefined;
  const baseline = base?.ok ? said.reduce((n, b) => n + (base.deletionsByBlock[b] ?? 0), 0) : undefined;
  return {
    ok: true as const,
    kind,
    label,
    dropped: dropped !== undefined,
    seenAfterAskMs:
      dropped !== undefined && log.dropAskedAt !== undefined ? dropped - log.dropAskedAt : undefined,
    nextTurnMs: since(false),
    nextFinalMs: since(true),
    gapMs: dropped !== undefined && log.resumedAt !== undefined ? log.resumedAt - dropped : undefined,
    replayedMs: log.replayedMs,
    audioLostMs: log.lostAudioMs,
    /** The last sentence's final: latency minus the same sentence's in the latency run. */
    laterLagMs: last.latencyMs === undefined || lastBase == null ? undefined : last.latencyMs - lastBase,
    said: aligned.hits + aligned.substitutions + aligned.deletions,
    right: aligned.hits,
    misheard: aligned.substitutions,
    missing: aligned.deletions,
    baselineMissing: baseline,
    lost: baseline === undefined ? undefined : Math.max(0, aligned.deletions - baseline),
    extra: aligned.insertions,
    heard: words.join(' '),
    begins: log.begins,
    errors: log.errors,
  };
}

/**
 * One capacity step: the finals of every session, their latency and their lag (latency minus the same
 * sentence's in the latency run). Each session's first sentence is apart: it competes with every
 * session's recogniser starting (a model load each), a cost of starting, not of keeping up. The emulator
 * keeps up when every final came, no session failed, and the later sentences' lag p95 is within `lagBoundMs`.
 */
export function capacityRow(
  n: number,
  sessions: SessionPlan[],
  blocks: readonly Block[],
  measured: { result: ClientResult; emulatorCpu: number },
  base: Extract<LatencyRow, { ok: true }>,
  lagBoundMs: number,
) {
  const { result, emulatorCpu } = measured;
  if (!result.ok) return { ok: false as const, sessions: n, error: result.error };
  const latencies: number[] = [];
  /** Lag by position in the session. */
  const lags: number[][] = sessions[0]?.blocks.map(() => []) ?? [];
  let missing = 0;
  for (const [k, log] of result.sessions.entries()) {
    for (const [position, o] of blockOutcomes(log, sessions[k]!, blocks).entries()) {
      const before = base.latencyByBlock[o.block];
      if (o.latencyMs === undefined) missing++;
      else latencies.push(o.latencyMs);
      if (o.latencyMs !== undefined && before != null) lags[position]?.push(o.latencyMs - before);
    }
  }
  const later = lags.slice(1).flat();
  const errors = result.sessions.flatMap((s) => s.errors);
  const audioSeconds = result.audioMs / 1000;
  const lagP95 = percentile(later, 95);
  return {
    ok: true as const,
    sessions: n,
    finals: latencies.length,
    expected: sessions.reduce((count, s) => count + s.blocks.length, 0),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    max: percentile(latencies, 100),
    /** The first sentences' lag, worst session. */
    startLagMax: percentile(lags[0] ?? [], 100),
    /** The later sentences' lag. */
    lagP50: percentile(later, 50),
    lagP95,
    /** The last sentence's lag, median over sessions: growing with N when the emulator falls behind. */
    lastLagP50: percentile(lags.at(-1) ?? [], 50),
    lagsByPosition: lags,
    emulatorCpuPerSession: emulatorCpu / audioSeconds,
    clientCpuPerSession: result.cpuMs / 1000 / audioSeconds,
    errors,
    keepsUp: missing === 0 && errors.length === 0 && lagP95 <= lagBoundMs,
  };
}
