/**
 * `#transfer` for the `fetch` test project: Node's streamed uploads as in production, but no native
 * sender, so every ordinary request goes through ky over `globalThis.fetch`, the path a client given its
 * own `fetch` takes (and, streams apart, the one browsers run). The integration suite runs on both.
 */
import type { NativeSender } from '../../src/internal/transfer.js';

export { sendStreamed } from '../../src/internal/transfer-node.js';
export const createNativeSender: ((agent: unknown) => NativeSender | undefined) | undefined = undefined;
