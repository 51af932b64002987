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
