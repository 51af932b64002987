import { bytesToHex } from './internal/encoding.js';

/**
 * MD5 (RFC 1321) in plain TypeScript. Pusher Channels' HTTP API signs requests over a string that
 * contains `body_md5`, and Web Crypto has no MD5, so without this a signer would need `node:crypto` and
 * could not run in browsers or edge workers. MD5 is broken for collision resistance; here it is only a
 * body checksum inside an HMAC-SHA256-signed string, which is all the service asks of it.
 */

/**
 * The RFC's table T, T[i] = floor(2^32 * |sin(i + 1)|), written out rather than computed at load time:
 * ECMAScript leaves the accuracy of Math.sin to each engine, and a constant must not depend on that.
 * A plain array literal, not `new Uint32Array(...)`: bundlers cannot prove a constructor call free of
 * side effects, so they would keep the table in every bundle of `@x/core`, used or not.
 */
// biome-ignore format: eight words a row, as in the RFC, is easier to check against it.
const T = [
  0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
  0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
  0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
  0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
  0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
  0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
  0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
  0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
];

/** Left-rotation amounts: each of the four rounds cycles through its own four (RFC 1321 section 3.4). */
const S = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];

/** Hex MD5 of `input`; strings are hashed as their UTF-8 bytes, as a server hashing the body does. */
export function md5Hex(input: string | Uint8Array): string {
  // A TextEncoder per call rather than per module, for the same reason as T's array literal.
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  // Padding (section 3.1-3.2): a single 1 bit, zeros up to 56 bytes mod 64, then the length in bits as a
  // 64-bit number. The message then fills whole 64-byte blocks, and appending the length keeps messages
  // that differ only by trailing zero bytes from padding to the same blocks.
  const padded = new Uint8Array(Math.ceil((bytes.length + 9) / 64) * 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  // The RFC reads every multi-byte quantity least significant byte first (section 2), the length included.
  // Bit lengths pass 2^32 at 512 MiB, so the high word is written too; `>>> 0` keeps the low 32 bits.
  view.setUint32(padded.length - 8, (bytes.length * 8) >>> 0, true);
  view.setUint32(padded.length - 4, Math.floor(bytes.length / 2 ** 29), true);

  // The four-word buffer A, B, C, D with its initial values (section 3.3).
  let a0 = 0x67452301;
  let b0 = 0xefcdab89;
  let c0 = 0x98badcfe;
  let d0 = 0x10325476;
  const x = new Uint32Array(16);
  for (let block = 0; block < padded.length; block += 64) {
    for (let j = 0; j < 16; j++) x[j] = view.getUint32(block + j * 4, true);
    let a = a0;
    let b = b0;
    let c = c0;
    let d = d0;
    for (let i = 0; i < 64; i++) {
      // Each round has its own mixing function and visits the 16 words in its own order (section 3.4).
      let f: number;
      let k: number;
      if (i < 16) {
        f = (b & c) | (~b & d);
        k = i;
      } else if (i < 32) {
        f = (b & d) | (c & ~d);
        k = (1 + 5 * i) % 16;
      } else if (i < 48) {
        f = b ^ c ^ d;
        k = (5 + 3 * i) % 16;
      } else {
        f = c ^ (b | ~d);
        k = (7 * i) % 16;
      }
      // The RFC writes 16 steps per round with the roles of a, b, c, d rotating; shifting the variables
      // by one each step is the same computation as a loop. `| 0` is the RFC's addition modulo 2^32.
      const sum = (a + f + T[i]! + x[k]!) | 0;
      const s = S[(i >> 4) * 4 + (i % 4)]!;
      a = d;
      d = c;
      c = b;
      b = (b + ((sum << s) | (sum >>> (32 - s)))) | 0;
    }
    a0 = (a0 + a) | 0;
    b0 = (b0 + b) | 0;
    c0 = (c0 + c) | 0;
    d0 = (d0 + d) | 0;
  }

  // The digest is A, B, C, D, each again low-order byte first (section 3.5).
  const digest = new DataView(new ArrayBuffer(16));
  for (const [i, word] of [a0, b0, c0, d0].entries()) digest.setUint32(i * 4, word, true);
  return bytesToHex(new Uint8Array(digest.buffer));
}
