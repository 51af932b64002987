import {
  type Sandbox,
  type SandboxOptions,
  startSandbox,
  type TranscriptionEmulatorOptions,
} from '@x/sandbox';
import { TranscriptionClient, type TranscriptionClientOptions } from '../../src/index.js';

export type { Sandbox };

/** A sandbox with only the transcription emulator, unlimited unless a test asks for limits. */
export async function sandbox(
  transcription: TranscriptionEmulatorOptions = {},
  options: Omit<SandboxOptions, 'store' | 'transcription'> = {},
): Promise<Sandbox<false> & { transcription: NonNullable<Sandbox['transcription']> }> {
  const box = await startSandbox({
    port: 0,
    ...options,
    store: false,
    transcription: { rateLimit: false, webhooks: { retryDelayMs: 50 }, ...transcription },
  });
  return box as Sandbox<false> & { transcription: NonNullable<Sandbox['transcription']> };
}

export function clientFor(
  box: { url: string; transcription: { apiKey: string } },
  overrides: Partial<TranscriptionClientOptions> = {},
): TranscriptionClient {
  return new TranscriptionClient({
    apiKey: box.transcription.apiKey,
    baseUrl: box.url,
    rateLimit: false,
    logLevel: 'off',
    ...overrides,
  });
}
