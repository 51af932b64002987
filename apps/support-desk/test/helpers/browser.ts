import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium; playwright-core downloads no browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** `args`: more Chromium switches, e.g. a fake microphone playing a WAV (`fakeMicrophone`). */
export function launch(args: readonly string[] = []): Promise<Browser> {
  if (!hasChromium) {
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Root in a container has no user namespaces for Chromium's sandbox.
    args: ['--no-sandbox', '--disable-dev-shm-usage', ...args],
  });
}

/**
 * Switches that make `getUserMedia` grant at once a microphone that plays `wav` (Chromium resamples it
 * to the capture rate, 48 kHz, and loops it).
 */
export function fakeMicrophone(wav: string): string[] {
  return [
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-audio-capture=${wav}`,
  ];
}
