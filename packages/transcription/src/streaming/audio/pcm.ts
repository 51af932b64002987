/**
 * Sample conversions. Web Audio hands out Float32 samples in [-1, 1]; the service takes 16-bit PCM.
 */

/**
 * Float32 samples to 16-bit PCM: clamped to [-1, 1] (a hot microphone overshoots), scaled asymmetrically
 * so -1 is -32768 and 1 is 32767, rounded; NaN becomes silence.
 */
export function float32ToPcm16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i]!;
    if (s >= 1) out[i] = 0x7fff;
    else if (s <= -1) out[i] = -0x8000;
    else if (s < 0) out[i] = Math.round(s * 0x8000);
    else if (s > 0) out[i] = Math.round(s * 0x7fff);
  }
  return out;
}

/** 16-bit PCM to Float32 in [-1, 1): the inverse scale of `float32ToPcm16`. */
export function pcm16ToFloat32(samples: Int16Array): Float32Array {
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i]!;
    out[i] = s < 0 ? s / 0x8000 : s / 0x7fff;
  }
  return out;
}
