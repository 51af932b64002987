/**
 * A vitest setup file (CI only, see vitest.shared.ts): each test records the Node version of the worker
 * that runs it in its meta, which the JSON report keeps, so `.ci/run` can show that a run meant for
 * Node 24 really ran every test on Node 24 and not on whatever `node` a worker pool picked.
 */
import { beforeEach } from 'vitest';

beforeEach(({ task }) => {
  Object.assign(task.meta, { node: process.version });
});
