import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { md5Hex } from '../../src/index.js';

const nodeMd5 = (input: string | Uint8Array) => createHash('md5').update(input).digest('hex');

/** A seeded generator (mulberry32), so a failing input can be reproduced from the test name alone. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

describe('md5Hex', () => {
  it('matches the test suite of RFC 1321 (appendix A.5)', () => {
    const suite: [string, string][] = [
      ['', 'd41d8cd98f00b204e9800998ecf8427e'],
      ['a', '0cc175b9c0f1b6a831c399e269772661'],
      ['abc', '900150983cd24fb0d6963f7d28e17f72'],
      ['message digest', 'f96b697d7cb7938d525a2f31aaf161d0'],
      ['abcdefghijklmnopqrstuvwxyz', 'c3fcd3d76192e4007dfb496cca67e13b'],
      ['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 'd174ab98d277d9f5a5611c2c9f419d9f'],
      [
        '12345678901234567890123456789012345678901234567890123456789012345678901234567890',
        '57edf4a22be3c955ac49da2e2107b67a',
      ],
    ];
    for (const [input, digest] of suite) expect(md5Hex(input), JSON.stringify(input)).toBe(digest);
  });

  it('agrees with node:crypto on random bytes of every length from 0 to 300', () => {
    // Every length covers the padding edges: 55 bytes is the last to fit one block with its length,
    // 56 to 63 spill the length into a second block, 64 fills a block exactly, and so on at 119/120/128.
    const random = seeded(1321);
    for (let length = 0; length <= 300; length++) {
      for (let sample = 0; sample < 3; sample++) {
        const bytes = Uint8Array.from({ length }, () => Math.floor(random() * 256));
        expect(md5Hex(bytes), `length ${length}, sample ${sample}`).toBe(nodeMd5(bytes));
      }
    }
  });

  it('agrees with node:crypto on all-0x00 and all-0xff inputs around the block boundaries', () => {
    // Constant bytes catch a padding that forgets to zero, or a 0x80 marker written over a 0xff byte.
    for (const length of [0, 1, 54, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129]) {
      for (const fill of [0x00, 0xff, 0x80]) {
        const bytes = new Uint8Array(length).fill(fill);
        expect(md5Hex(bytes), `length ${length}, fill ${fill}`).toBe(nodeMd5(bytes));
      }
    }
  });

  it('hashes strings as UTF-8, multibyte characters included', () => {
    const random = seeded(56);
    // One, two, three and four UTF-8 bytes per character (the last a surrogate pair in JavaScript).
    const alphabet = ['a', 'Z', '0', ' ', '{', '"', 'é', 'ß', 'Ж', '€', '中', '文', '😀', '𝄞'];
    for (let length = 0; length <= 120; length++) {
      const text = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      expect(md5Hex(text), JSON.stringify(text)).toBe(nodeMd5(Buffer.from(text, 'utf8')));
    }
    expect(md5Hex('{"name":"my-event","data":"héllo 🌍"}')).toBe(
      nodeMd5('{"name":"my-event","data":"héllo 🌍"}'),
    );
  });

  it('hashes a lone surrogate as U+FFFD, as TextEncoder and Node do when they send the body', () => {
    expect(md5Hex('a\ud800b')).toBe(nodeMd5(Buffer.from('a\ufffdb', 'utf8')));
  });

  it('hashes only the bytes a Uint8Array view covers, and leaves them untouched', () => {
    const whole = Uint8Array.from({ length: 100 }, (_, i) => i);
    const view = whole.subarray(10, 70);
    const before = Uint8Array.from(view);
    expect(md5Hex(view)).toBe(nodeMd5(before));
    expect(view).toEqual(before);
  });

  it('agrees with node:crypto on a body of several megabytes', () => {
    const random = seeded(64);
    const bytes = Uint8Array.from({ length: 3 * 1024 * 1024 + 7 }, () => Math.floor(random() * 256));
    expect(md5Hex(bytes)).toBe(nodeMd5(bytes));
  });
});
