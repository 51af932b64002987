import { RealtimeError } from '@x/core';
import { AuthFailure } from './auth.js';
import { Channel } from './channel.js';
import type { Frame } from './protocol.js';

type Open = (key: Uint8Array, nonce: Uint8Array, ciphertext: Uint8Array) => Uint8Array;

/**
 * NaCl secretbox (XSalsa20-Poly1305), loaded on first use: only apps that subscribe to an encrypted
 * channel download it (pusher-js#298: encryption added 60 KB to every bundle). `open` throws on a bad tag.
 */
async function loadOpen(): Promise<Open> {
  const { secretbox } = await import('@noble/ciphers/salsa.js');
  return (key, nonce, ciphertext) => secretbox(key, nonce).open(ciphertext);
}

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

/**
 * A `private-encrypted-` channel: the server relays ciphertext it cannot read; the key is the auth
 * response's `shared_secret`. Client events are refused (the protocol does not support them here).
 */
export class EncryptedChannel extends Channel {
  private key: Uint8Array | null = null;
  private open: Open | null = null;
  /** Events that arrive while a re-authorization is fetching a new key wait here, in order. */
  private backlog: Frame[] | null = null;

  /** Not supported on encrypted channels: always throws. */
  trigger(..._args: never[]): never {
    throw new RealtimeError(`client events are not supported on encrypted channels (${this.name})`);
  }

  protected override async subscriptionData(socketId: string): Promise<Record<string, unknown>> {
    const auth = await this.fetchKey(socketId);
    // Loaded before subscribing, so every event can be decrypted as it arrives, in order.
    this.open ??= await loadOpen();
    return { auth };
  }

  protected override deliver(frame: Frame): void {
    if (this.backlog) this.backlog.push(frame);
    else this.decrypt(frame, true);
  }

  private async fetchKey(socketId: string): Promise<string> {
    const auth = await this.host.authorize(this.name, socketId);
    const key = typeof auth.shared_secret === 'string' ? fromBase64(auth.shared_secret) : null;
    if (key?.length !== 32)
      throw new AuthFailure('the auth response has no 32-byte base64 shared_secret', 200);
    this.key = key;
    return auth.auth;
  }

  private decrypt(frame: Frame, mayRefresh: boolean): void {
    const payload = frame.data as { nonce?: unknown; ciphertext?: unknown } | undefined;
    if (typeof payload?.nonce !== 'string' || typeof payload.ciphertext !== 'string') {
      this.report(frame.event, 'expected an object with "nonce" and "ciphertext"');
      return;
    }
    let bytes: Uint8Array;
    try {
      if (!this.key || !this.open) throw new Error('no key yet');
      bytes = this.open(this.key, fromBase64(payload.nonce), fromBase64(payload.ciphertext));
    } catch (error) {
      if (mayRefresh) void this.refresh(frame);
      else
        this.report(frame.event, `cannot decrypt: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    const text = new TextDecoder().decode(bytes);
    let data: unknown = text;
    try {
      data = JSON.parse(text);
    } catch {
      // A plain string was encrypted: deliver it as is, like an unencrypted event's non-JSON data.
    }
    super.deliver({ ...frame, data });
  }

  /**
   * The key may have been rotated on the server: authorize once more for a fresh one, then retry this
   * event and the ones that queued behind it. Whatever still fails is dropped and reported, without a
   * further round, so a bad key cannot turn every event into an auth request.
   */
  private async refresh(frame: Frame): Promise<void> {
    this.backlog = [frame];
    const socketId = this.host.socketId;
    let ok = socketId !== null;
    if (socketId !== null) {
      try {
        await this.fetchKey(socketId);
      } catch (error) {
        ok = false;
        this.host.log('warn', `re-authorizing ${this.name} for a new key failed`, error);
      }
    }
    const waiting = this.backlog;
    this.backlog = null;
    for (const queued of waiting) {
      if (ok) this.decrypt(queued, false);
      else this.report(queued.event, 'cannot decrypt and could not fetch a new key');
    }
  }

  private report(event: string, error: string): void {
    this.host.log('warn', `dropped ${event} on ${this.name}: ${error}`);
    this.emitter.emit('pusher:decryption_error', { event, error });
  }
}
