/**
 * `#transfer` is resolved by package.json "imports" at run time (Node: transfer-node, elsewhere:
 * transfer-web). Both export this; declared here so TypeScript needs no path mapping, which bundlers
 * (esbuild reads tsconfig paths) would otherwise follow into the Node variant.
 */
declare module '#transfer' {
  import type { StreamedSendInput } from './transfer.js';
  export const sendStreamed: ((input: StreamedSendInput) => Promise<Response>) | undefined;
}
