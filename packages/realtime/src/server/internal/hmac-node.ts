/**
 * The Node side of the `#hmac` import map. In Node a Web Crypto `sign` costs about 150 µs of CPU (an async
 * job and its promise machinery), more than the rest of a trigger, where `createHmac` costs a few µs, as
 * pusher-http-node pays; so the request signer uses it here. Other runtimes get `hmac-web.ts`.
 */
import { createHmac } from 'node:crypto';

/** Lowercase hex HMAC-SHA256 of `text` with `secret`, synchronously. */
export const hexHmac = (secret: string): ((text: string) => string) => {
  return (text) => createHmac('sha256', secret).update(text).digest('hex');
};
