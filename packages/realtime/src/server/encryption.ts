import { concatBytes, fromBase64, toBase64, utf8 } from './internal/bytes.js';

/**
 * End-to-end encrypted channels (`private-encrypted-*`), as pusher-http-node and pusher-js implement them:
 * the per-channel key is SHA-256(channel name bytes || master key bytes), and event data is NaCl secretbox
 * (XSalsa20-Poly1305) under that key. The service only ever sees ciphertext.
 */

/** The master key's 32 bytes, or a sentence saying what is wrong with it. */
export function decodeMasterKey(base64: string): Uint8Array<ArrayBuffer> | string {
  if (typeof base64 !== 'string') return 'must be a base64 string';
  const bytes = fromBase64(base64);
  if (!bytes) return 'is not valid base64';
  if (bytes.byteLength !== 32) {
    return `must decode to 32 bytes, got ${bytes.byteLength} (generate one with: openssl rand -base64 32)`;
  }
  return bytes;
}

/** The channel's 32-byte key (pusher-http-node `channelSharedSecret`). */
export async function channelSharedSecret(
  channel: string,
  masterKey: Uint8Array,
): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', concatBytes(utf8(channel), masterKey)));
}

/** The same key as the `shared_secret` of a channel authorization: base64. */
export async function sharedSecretBase64(channel: string, masterKey: Uint8Array): Promise<string> {
  return toBase64(await channelSharedSecret(channel, masterKey));
}

/**
 * The `data` string of an event on an encrypted channel: `{"nonce": b64, "ciphertext": b64}`. The plaintext
 * is `JSON.stringify(data)` even when `data` is already a string, exactly as pusher-http-node does
 * (`lib/events.js` `encrypt`), so pusher-js receivers see the same value from either server SDK.
 *
 * `@noble/ciphers` is imported here, on first use, so that applications without encrypted channels never
 * load it (its XSalsa20-Poly1305 output is tweetnacl's `secretbox`, tag first).
 */
export async function encryptEventData(
  channel: string,
  data: unknown,
  masterKey: Uint8Array,
): Promise<string> {
  const { xsalsa20poly1305 } = await import('@noble/ciphers/salsa.js');
  const key = await channelSharedSecret(channel, masterKey);
  const nonce = crypto.getRandomValues(new Uint8Array(24));
  const ciphertext = xsalsa20poly1305(key, nonce).encrypt(utf8(JSON.stringify(data)));
  return JSON.stringify({ nonce: toBase64(nonce), ciphertext: toBase64(ciphertext) });
}
