import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * One test configuration for every package. Under CI each package also writes a JSON report that
 * `.ci/run` adds up into totals. `.ci/run` runs the suite once per Node version and names each run in
 * X_TEST_RUN (`node24` writes test-results.node24.json), so one run's report never overwrites another's;
 * every test also records the Node version of the worker that ran it (see .ci/vitest-node-version.ts).
 */
const run = process.env.X_TEST_RUN;
if (run && !/^[\w.-]+$/.test(run)) throw new Error(`X_TEST_RUN=${run}: use letters, digits, '.', '-', '_'`);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    setupFiles: process.env.CI
      ? [fileURLToPath(new URL('./.ci/vitest-node-version.ts', import.meta.url))]
      : [],
    reporters: process.env.CI
      ? ['default', ['json', { outputFile: run ? `test-results.${run}.json` : 'test-results.json' }]]
      : ['default'],
  },
});
