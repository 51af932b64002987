import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

/**
 * The shared configuration, two test files at once (vitest's default on 2 cores is one, and most files spend
 * their time waiting on speech synthesis, recognition at real-time pace or Chromium, not on this process's
 * CPU), plus a global setup that builds the page once (`vite build`, skipped when
 * dist/web is newer than every source file) for the end-to-end tests, which the app server serves.
 */
export default mergeConfig(
  shared,
  defineConfig({
    test: {
      globalSetup: ['./test/global-setup.ts'],
      maxWorkers: 2,
      testTimeout: 120_000,
      hookTimeout: 120_000,
    },
  }),
);
