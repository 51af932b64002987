/**
 * Browsers, edge runtimes and Deno's browser-like builds: no Node streaming path, so the transport sends
 * stream bodies through `fetch` with `duplex: 'half'` (and Blobs as Blobs). Chosen by the `#transfer`
 * import map for any runtime that does not match the `node` condition.
 */
import type { StreamedSendInput } from './transfer.js';

export const sendStreamed: ((input: StreamedSendInput) => Promise<Response>) | undefined = undefined;
