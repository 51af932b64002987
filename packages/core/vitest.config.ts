import { fileURLToPath } from 'node:url';
import { mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Tests run the sources, so the `#transfer` import map points at the Node variant's source, not at dist.
 * Two projects: `native` runs everything on Node's default path (undici's dispatcher); `fetch` runs the
 * integration files that exercise the transport again with ky over `fetch` (issue 21: both paths pass the
 * same suite). The Redis, rate-limit timing and packaging files do not touch the path and run once.
 */
export default mergeConfig(shared, {
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'native' },
        resolve: { alias: { '#transfer': here('./src/internal/transfer-node.ts') } },
      },
      {
        extends: true,
        test: {
          name: 'fetch',
          // `extends: true` concatenates include lists, so the other directories are excluded instead.
          exclude: [
            'test/unit/**',
            'test/fuzz/**',
            'test/hostile/**',
            'test/integration/rate-limit*.test.ts',
            'test/integration/idempotency-redis.test.ts',
            'test/integration/dual-package.test.ts',
            'test/integration/example.test.ts',
            'test/integration/socket-lifecycle.test.ts',
          ],
        },
        resolve: { alias: { '#transfer': here('./test/helpers/transfer-fetch-path.ts') } },
      },
    ],
  },
});
