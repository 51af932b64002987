import { mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// Two test files at once even on 2 cores (vitest's default there is one): the streaming tests spend most of
// their time waiting on audio sent at real-time pace, not on the CPU. Measured on this 2-core machine: the
// package's suite took 2/3 to 3/4 of the time (sandbox 217 s → 168 s, transcription 158 s → 116 s).
// The speech tests run a real recogniser (PocketSphinx) over flite audio: a busy machine (another CI run,
// benches) stretched some past the shared 30 s guard and failed them with nothing wrong. The guard is
// for hangs, not speed: 120 s here.
export default mergeConfig(shared, { test: { maxWorkers: 2, testTimeout: 120_000, hookTimeout: 120_000 } });
