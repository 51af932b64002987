import type { AuthErrorData } from '../client/auth.js';
import type { UserData } from '../client/user.js';
import { type AnyClient, perClient } from './lease.js';

/** `signed-out`: signin never asked. `signing-in`: asked, no answer on this connection yet. */
export type SigninState = 'signed-out' | 'signing-in' | 'signed-in' | 'failed';

export interface UserState {
  state: SigninState;
  /** The `user_data` the app's endpoint signed, while signed in. */
  data: UserData | null;
  /** Why the last signin failed, while `failed`. */
  error: AuthErrorData | null;
  /** Ids of the watchlist's users online now, from the server's `online` and `offline` events. */
  online: readonly string[];
}

/**
 * One per client, listening from the provider's mount for as long as the client lives (its listeners are
 * on the client only), so every `useUser` agrees and no watchlist event is missed between mounts.
 */
export class UserStore {
  state: UserState;
  private asked = false;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly client: AnyClient) {
    const { user, connection } = client;
    this.state = { state: 'signed-out', data: user.data, error: null, online: [] };
    if (user.data) this.set({ state: 'signed-in' });
    user.bind<UserData>('pusher:signin_success', (data) =>
      this.set({ state: 'signed-in', data, error: null }),
    );
    user.bind<AuthErrorData>('pusher:signin_error', (error) =>
      this.set({ state: 'failed', data: null, error }),
    );
    user.watchlist.bind('online', ({ user_ids }) =>
      this.set({ online: [...new Set([...this.state.online, ...user_ids])] }),
    );
    user.watchlist.bind('offline', ({ user_ids }) =>
      this.set({ online: this.state.online.filter((id) => !user_ids.includes(id)) }),
    );
    connection.bind('state_change', ({ current }) => {
      // A signin belongs to a socket: the client signs in again on the next one while it stays asked for.
      if (current !== 'connected' && this.state.state === 'signed-in')
        this.set({ state: this.asked ? 'signing-in' : 'signed-out', data: null, online: [] });
    });
  }

  /** Signs in (now or once connected); resolves with the user data, rejects with the failure. */
  signin(): Promise<UserData> {
    this.asked = true;
    if (this.state.state !== 'signed-in') this.set({ state: 'signing-in', error: null });
    return this.client.user.signin();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(change: Partial<UserState>): void {
    this.state = { ...this.state, ...change };
    for (const listener of [...this.listeners]) listener();
  }
}

/** The one user store of `client`, shared by every `useUser` on it. */
export const userStore = perClient((client) => new UserStore(client));
