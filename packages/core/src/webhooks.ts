import { bytesToBase64, bytesToHex } from './internal/encoding.js';

/**
 * HMAC on Web Crypto (`crypto.subtle`), so webhook verification runs unchanged in Node 20+, browsers,
 * Deno, Bun, Cloudflare Workers and other edge runtimes.
 */
export type HmacAlgorithm = 'SHA-1' | 'SHA-256' | 'SHA-512';
export type SignatureEncoding = 'hex' | 'base64';

const encoder = new TextEncoder();

function toBytes(value: string | Uint8Array): Uint8Array<ArrayBuffer> {
  return typeof value === 'string' ? encoder.encode(value) : new Uint8Array(value);
}

export async function hmac(
  algorithm: HmacAlgorithm,
  secret: string | Uint8Array,
  payload: string | Uint8Array,
  encoding: SignatureEncoding,
): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    toBytes(secret),
    { name: 'HMAC', hash: algorithm },
    false,
    ['sign'],
  );
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', key, toBytes(payload)));
  return encoding === 'hex' ? bytesToHex(signature) : bytesToBase64(signature);
}

/** Compares in time that depends only on the length of `expected`, never on where the strings differ. */
export function timingSafeEqual(actual: string, expected: string): boolean {
  let diff = actual.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) {
    diff |= (actual.charCodeAt(i % Math.max(actual.length, 1)) || 0) ^ expected.charCodeAt(i);
  }
  return diff === 0;
}

export interface VerifyHmacInput {
  algorithm: HmacAlgorithm;
  secret: string | Uint8Array;
  /** The raw body exactly as received: re-serialised JSON does not verify. */
  payload: string | Uint8Array;
  signature: string | null | undefined;
  encoding: SignatureEncoding;
}

export async function verifyHmac(input: VerifyHmacInput): Promise<boolean> {
  if (!input.signature) return false;
  const expected = await hmac(input.algorithm, input.secret, input.payload, input.encoding);
  const actual = input.encoding === 'hex' ? input.signature.trim().toLowerCase() : input.signature.trim();
  return timingSafeEqual(actual, expected);
}

/** Request headers as web `Headers` or as Node's `IncomingMessage.headers` (and most frameworks) give them. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

/** One header's value, matched without regard to case; the first of repeated values. */
export function readHeader(headers: HeaderSource, name: string): string | undefined {
  if (typeof Headers !== 'undefined' && headers instanceof Headers) return headers.get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}
