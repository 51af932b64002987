/**
 * The `default` side of the `#hmac` import map (browsers, workers, edge runtimes): nothing, so bundles pull in
 * no Node module and the signer keeps to Web Crypto.
 */
export const hexHmac: ((secret: string) => (text: string) => string) | undefined = undefined;
