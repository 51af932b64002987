/**
 * `#transfer` is resolved by package.json "imports" at run time (Node: transfer-node, elsewhere:
 * transfer-web). Both export this; declared here so TypeScript needs no path mapping, which bundlers
 * (esbuild reads tsconfig paths) would otherwise follow into the Node variant.
 */
declare module '#transfer' {
  import type { NativeSender, StreamedSendInput } from './transfer.js';
  export const sendStreamed: ((input: StreamedSendInput) => Promise<Response>) | undefined;
  /** Node only: a sender for ordinary requests, one per client (over one connection pool for the process); none in Bun and Deno, which keep fetch. */
  export const createNativeSender: ((agent: unknown) => NativeSender | undefined) | undefined;
}
