import { mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// Two test files at once even on 2 cores (vitest's default there is one): the streaming tests spend most of
// their time waiting on audio sent at real-time pace, not on the CPU. Measured on this 2-core machine: the
// package's suite took 2/3 to 3/4 of the time (sandbox 217 s → 168 s, transcription 158 s → 116 s).
export default mergeConfig(shared, { test: { maxWorkers: 2 } });
