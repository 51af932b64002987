/**
 * NaCl secretbox (XSalsa20-Poly1305) for encrypted channels, imported lazily by `EncryptedChannel`: this
 * module and @noble/ciphers form their own chunk, so only apps that subscribe to an encrypted channel
 * download them (pusher-js#298: encryption added 60 KB to every bundle).
 */
import { secretbox } from '@noble/ciphers/salsa.js';

export function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

/** Opens one event's `{nonce, ciphertext}`; throws on a wrong key or a forged message (bad tag). */
export function decrypt(key: Uint8Array, nonce: string, ciphertext: string): unknown {
  const text = new TextDecoder().decode(secretbox(key, fromBase64(nonce)).open(fromBase64(ciphertext)));
  try {
    return JSON.parse(text);
  } catch {
    // A plain string was encrypted: deliver it as is, like an unencrypted event's non-JSON data.
    return text;
  }
}
