import { AuthFailure } from './auth.js';
import { Channel } from './channel.js';
import { describe, RealtimeError } from './errors.js';
import type { Frame } from './protocol.js';

type Crypto = typeof import('./decrypt.js');

/**
 * A `private-encrypted-` channel: the server relays ciphertext it cannot read; the key is the auth
 * response's `shared_secret`. Client events are refused (the protocol does not support them here).
 */
export class EncryptedChannel extends Channel {
  private key: Uint8Array | null = null;
  private crypto: Crypto | null = null;
  /** Events that arrive while a re-authorization is fetching a new key wait here, in order. */
  private backlog: Frame[] | null = null;

  /** Not supported on encrypted channels: always throws. */
  trigger(..._args: never[]): never {
    throw new RealtimeError(`client events are not supported on encrypted channels (${this.name})`);
  }

  protected override async subscriptionData(socketId: string): Promise<Record<string, unknown>> {
    // Loaded before subscribing, so every event can be decrypted as it arrives, in order.
    this.crypto ??= await import('./decrypt.js');
    return { auth: await this.fetchKey(socketId, this.crypto) };
  }

  protected override deliver(frame: Frame): void {
    if (this.backlog) this.backlog.push(frame);
    else this.decrypt(frame, true);
  }

  private async fetchKey(socketId: string, crypto: Crypto): Promise<string> {
    const auth = await this.host.authorize(this.name, socketId);
    const key = typeof auth.shared_secret === 'string' ? crypto.fromBase64(auth.shared_secret) : null;
    if (key?.length !== 32) throw new AuthFailure('no 32-byte base64 shared_secret', 200);
    this.key = key;
    return auth.auth;
  }

  private decrypt(frame: Frame, mayRefresh: boolean): void {
    const payload = frame.data as { nonce?: unknown; ciphertext?: unknown } | undefined;
    if (typeof payload?.nonce !== 'string' || typeof payload.ciphertext !== 'string') {
      this.report(frame.event, 'expected an object with "nonce" and "ciphertext"');
      return;
    }
    let data: unknown;
    try {
      if (!this.key || !this.crypto) throw new Error('no key yet');
      data = this.crypto.decrypt(this.key, payload.nonce, payload.ciphertext);
    } catch (error) {
      if (mayRefresh) void this.refresh(frame);
      else this.report(frame.event, `cannot decrypt: ${describe(error)}`);
      return;
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
    let ok = socketId !== null && this.crypto !== null;
    if (ok) {
      try {
        await this.fetchKey(socketId as string, this.crypto as Crypto);
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
