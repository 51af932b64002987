import { useEffect, useSyncExternalStore } from 'react';
import type { UserData } from '../client/user.js';
import { useRealtimeClient } from './context.js';
import { type UserState, userStore } from './user-store.js';

export interface UseUserOptions {
  /** Sign in once mounted (default false: call `signin()`). */
  signin?: boolean;
}

export interface UseUser extends UserState {
  /** `client.user.signin()`: resolves with the user data; a failure also shows in `state` and `error`. */
  signin(): Promise<UserData>;
}

const signedOut: UserState = Object.freeze({ state: 'signed-out', data: null, error: null, online: [] });

/** The signed-in user (`client.user`): signin state, `user_data`, and the watchlist's online users. */
export function useUser(options: UseUserOptions = {}): UseUser {
  const store = userStore(useRealtimeClient());
  const auto = options.signin === true;
  useEffect(() => {
    // The failure is in the state; nobody awaits this promise.
    if (auto) store.signin().catch(() => {});
  }, [store, auto]);
  const state = useSyncExternalStore(
    store.subscribe,
    () => store.state,
    () => signedOut,
  );
  return { ...state, signin: () => store.signin() };
}
