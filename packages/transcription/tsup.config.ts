import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    streaming: 'src/streaming/index.ts',
    // The two sides of the `#websocket` import map (package.json "imports"): Node gets `ws` (the Authorization
    // header, pings), every other runtime the global WebSocket, so browser bundles never see `ws`.
    'websocket-node': 'src/streaming/socket/websocket-node.ts',
    'websocket-web': 'src/streaming/socket/websocket-web.ts',
    // And of `#transcriber`: `client.streaming.transcriber()` has the transcriber in Node only, so the REST
    // client's bundle for an edge function or a page carries none of it.
    'transcriber-node': 'src/streaming/socket/transcriber-node.ts',
    'transcriber-web': 'src/streaming/socket/transcriber-web.ts',
  },
  external: ['#websocket', '#transcriber'],
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts', streaming: 'src/streaming/index.ts' } },
  clean: true,
  sourcemap: true,
  target: 'es2022',
});
