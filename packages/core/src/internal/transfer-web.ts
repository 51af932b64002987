/**
 * Browsers, edge runtimes and Deno's browser-like builds: no Node streaming path, so the transport sends
 * stream bodies through `fetch` with `duplex: 'half'` (and Blobs as Blobs), and every ordinary request
 * through ky over `fetch`. Chosen by the `#transfer` import map for any runtime that does not match the
 * `node` condition.
 */
import type { NativeSender, StreamedSendInput } from './transfer.js';

export const sendStreamed: ((input: StreamedSendInput) => Promise<Response>) | undefined = undefined;
export const createNativeSender: ((agent: unknown) => NativeSender | undefined) | undefined = undefined;
