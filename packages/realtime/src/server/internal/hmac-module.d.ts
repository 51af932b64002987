/**
 * `#hmac` is resolved by package.json "imports" at run time (Node: hmac-node, elsewhere: hmac-web). Both
 * export this; declared here so TypeScript needs no path mapping, which bundlers (esbuild reads tsconfig
 * paths) would otherwise follow into the Node variant.
 */
declare module '#hmac' {
  /** Node only: a synchronous HMAC-SHA256 signer returning lowercase hex. */
  export const hexHmac: ((secret: string) => (text: string) => string) | undefined;
}
