import { fileURLToPath } from 'node:url';
import { mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// Tests run the sources, so the `#transfer` import map points at the Node variant's source, not at dist.
export default mergeConfig(shared, {
  resolve: {
    alias: { '#transfer': fileURLToPath(new URL('./src/internal/transfer-node.ts', import.meta.url)) },
  },
});
