/**
 * Where a storefront keeps its `Cart-Token`: the token is the cart (StoreApi/Utilities/CartTokenUtils.php
 * signs the session's customer id into it), so whoever holds it holds the cart. Memory by default; a page
 * keeps it in `localStorage` so a reload finds the cart; a server keeps it per visitor (its session, Redis).
 */
export interface CartTokenStore {
  get(): string | null | undefined | Promise<string | null | undefined>;
  set(token: string): void | Promise<void>;
  /** Forgets the token (a new cart starts with the next request). */
  clear?(): void | Promise<void>;
}

/** The default: the token lives as long as the client. */
export class MemoryCartTokenStore implements CartTokenStore {
  #token: string | null = null;

  get(): string | null {
    return this.#token;
  }

  set(token: string): void {
    this.#token = token;
  }

  clear(): void {
    this.#token = null;
  }
}

/** The part of the Web Storage API the store uses (`localStorage`, `sessionStorage`, or a stand-in). */
export interface WebStorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * A token kept in `localStorage` (the cart survives reloads and tabs) or `sessionStorage` (one tab).
 * A storage that throws (Safari's private mode, a full quota) loses the token rather than the request.
 */
export function webStorageCartTokenStore(
  storage: WebStorageLike,
  key = 'x-store-cart-token',
): CartTokenStore {
  return {
    get() {
      try {
        return storage.getItem(key);
      } catch {
        return null;
      }
    },
    set(token) {
      try {
        storage.setItem(key, token);
      } catch {
        // The next request starts a new cart: better than failing the one that just succeeded.
      }
    },
    clear() {
      try {
        storage.removeItem(key);
      } catch {
        // Nothing was stored, or nothing can be.
      }
    },
  };
}
