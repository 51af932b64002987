import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

/**
 * The shared configuration, plus a global setup that builds the page once (`vite build`, skipped when
 * dist/web is newer than every source file) for the end-to-end tests, which the app server serves.
 */
export default mergeConfig(
  shared,
  defineConfig({
    test: {
      globalSetup: ['./test/global-setup.ts'],
      testTimeout: 60_000,
      hookTimeout: 60_000,
    },
  }),
);
