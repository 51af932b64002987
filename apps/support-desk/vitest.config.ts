import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

/** The shared configuration, with more time for tests that run the sandbox's speech engine. */
export default mergeConfig(
  shared,
  defineConfig({
    test: {
      testTimeout: 60_000,
      hookTimeout: 60_000,
    },
  }),
);
