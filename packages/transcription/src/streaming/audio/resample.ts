/**
 * A linear-interpolation resampler for streams: feed it chunks of any size and the output is the same as
 * resampling the whole signal at once (positions are kept as exact integer fractions, not a float that
 * drifts). Linear interpolation is what a microphone at 48 kHz going to a 16 kHz session needs: cheap and
 * good enough for speech; it does not low-pass, so content above the target's Nyquist folds back.
 */
export class LinearResampler {
  readonly fromRate: number;
  readonly toRate: number;
  /** Output samples produced so far. */
  #produced = 0;
  /** Input samples consumed before the current chunk. */
  #consumed = 0;
  /** The previous chunk's last sample, for interpolating across the boundary. */
  #last = 0;

  constructor(fromRate: number, toRate: number) {
    if (!Number.isInteger(fromRate) || fromRate <= 0 || !Number.isInteger(toRate) || toRate <= 0) {
      throw new RangeError(`LinearResampler: rates must be positive integers (got ${fromRate} → ${toRate})`);
    }
    this.fromRate = fromRate;
    this.toRate = toRate;
  }

  /** The output for the next chunk of input. */
  process(input: Float32Array): Float32Array {
    const n = input.length;
    if (n === 0) return new Float32Array(0);
    if (this.fromRate === this.toRate) {
      this.#consumed += n;
      this.#produced += n;
      this.#last = input[n - 1]!;
      return input.slice();
    }
    const from = this.fromRate;
    const to = this.toRate;
    // Output sample k sits at input position k·from/to. Kept as numerator/to, relative to this chunk.
    const end = this.#consumed + n - 1;
    // Last k whose position is within this chunk: k·from ≤ end·to.
    const lastK = Math.floor((end * to) / from);
    const count = Math.max(0, lastK - this.#produced + 1);
    const out = new Float32Array(count);
    for (let j = 0; j < count; j++) {
      const k = this.#produced + j;
      const numerator = k * from - this.#consumed * to;
      const i = Math.floor(numerator / to);
      const rest = numerator - i * to;
      const a = i < 0 ? this.#last : input[i]!;
      out[j] = rest === 0 ? a : a + ((input[i + 1]! - a) * rest) / to;
    }
    this.#produced += count;
    this.#consumed += n;
    this.#last = input[n - 1]!;
    return out;
  }
}

/** Resamples a whole signal at once. */
export function resampleLinear(input: Float32Array, fromRate: number, toRate: number): Float32Array {
  return new LinearResampler(fromRate, toRate).process(input);
}
