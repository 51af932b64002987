import { randomBytes } from 'node:crypto';

export type KeyPermissions = 'read' | 'write' | 'read_write';

/** An API key as WooCommerce hands it out (Settings → Advanced → REST API). */
export interface StoreKey {
  consumerKey: string;
  consumerSecret: string;
  permissions: KeyPermissions;
}

/** A row of `woocommerce_api_keys`: the key plus what authentication keeps about it. */
export interface KeyRecord extends StoreKey {
  keyId: number;
  userId: number;
  /** OAuth nonces used in the last 15 minutes, keyed by timestamp (as WooCommerce stores them). */
  nonces: Map<string, string>;
}

export function generateKey(permissions: KeyPermissions): StoreKey {
  return {
    consumerKey: `ck_${randomBytes(20).toString('hex')}`,
    consumerSecret: `cs_${randomBytes(20).toString('hex')}`,
    permissions,
  };
}

/**
 * The keys a sandbox starts with unless told otherwise: the same on every start, so credentials copied into
 * an app or a `.env` keep working across restarts. They are public (in the README), which is fine for a
 * loopback emulator; `randomKeys` / `--random-keys` give fresh ones.
 */
export const STORE_DEV_KEYS: Readonly<Record<KeyPermissions, Readonly<StoreKey>>> = Object.freeze({
  read_write: Object.freeze({
    consumerKey: 'ck_sandbox_dev_read_write',
    consumerSecret: 'cs_sandbox_dev_read_write',
    permissions: 'read_write',
  }),
  read: Object.freeze({
    consumerKey: 'ck_sandbox_dev_read',
    consumerSecret: 'cs_sandbox_dev_read',
    permissions: 'read',
  }),
  write: Object.freeze({
    consumerKey: 'ck_sandbox_dev_write',
    consumerSecret: 'cs_sandbox_dev_write',
    permissions: 'write',
  }),
});

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** wp_generate_password( $length, false ): letters and digits (order keys, webhook secrets). */
export function randomAlnum(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += ALNUM[bytes[i]! % ALNUM.length];
  return out;
}
