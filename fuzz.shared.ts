/**
 * Seeds for the fast-check fuzzing suites of every package: a fixed seed (the same inputs in every run, so
 * a regression shows up as a change), then a few random seeds (new inputs each run). Every run is printed
 * with its seed, so a failure in CI replays here with `X_FUZZ_SEED=<seed> pnpm test`.
 *
 * It imports no fast-check itself (each package has its own copy); a suite passes `seed` and `numRuns` to
 * `fc.assert`, and calls `reportFuzz` with what the surface took, which the closing notes quote.
 */
export const FIXED_FUZZ_SEED = 20_261_126;

export interface FuzzRun {
  seed: number;
  numRuns: number;
  /** For the test's title: `seed 20261126 (fixed)`. */
  label: string;
}

/**
 * A seed derived from text (FNV-1a, 31 bits). Under CI, `.ci/run` sets `X_FUZZ_SALT` to the commit: each
 * commit gets new inputs, yet the CI that judges a commit runs exactly the seeds its author's own CI run did,
 * so a landing is never decided by inputs nobody has seen.
 */
function seedFrom(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash & 0x7fff_ffff;
}

/**
 * The runs of one surface: `X_FUZZ_SEED` alone when set (a replay); otherwise the fixed seed and
 * `X_FUZZ_RANDOM` more seeds (default 2): derived from `X_FUZZ_SALT` and the Node major when it is set (CI),
 * random otherwise. `numRuns` inputs each.
 */
export function fuzzRuns(numRuns: number): FuzzRun[] {
  const replay = process.env.X_FUZZ_SEED;
  if (replay !== undefined) {
    const seed = Number(replay);
    if (!Number.isSafeInteger(seed)) throw new Error(`X_FUZZ_SEED=${replay}: expected an integer`);
    return [{ seed, numRuns, label: `seed ${seed} (replay)` }];
  }
  const randomRuns = Number(process.env.X_FUZZ_RANDOM ?? 2);
  const runs: FuzzRun[] = [{ seed: FIXED_FUZZ_SEED, numRuns, label: `seed ${FIXED_FUZZ_SEED} (fixed)` }];
  const salt = process.env.X_FUZZ_SALT;
  for (let i = 0; i < randomRuns; i++) {
    const seed = salt
      ? seedFrom(`${salt}:${process.versions.node.split('.')[0]}:${i}`)
      : Math.floor(Math.random() * 0x7fff_ffff);
    const kind = salt ? 'from the commit' : 'random';
    runs.push({ seed, numRuns, label: `seed ${seed} (${kind}; replay with X_FUZZ_SEED=${seed})` });
  }
  return runs;
}

/** One line per surface and seed, so CI's log says how many inputs each surface took. */
export function reportFuzz(surface: string, run: FuzzRun, inputs: number): void {
  console.log(`fuzz ${surface}: ${inputs} inputs, ${run.label}`);
}
