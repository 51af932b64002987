import { defineConfig } from 'vitest/config';

/**
 * One test configuration for every package. Under CI each package also writes a JSON report that
 * `.ci/run` adds up into one line of totals.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'test-results.json' }]] : ['default'],
  },
});
