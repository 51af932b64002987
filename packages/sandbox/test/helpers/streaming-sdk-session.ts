/**
 * One streaming session through the official `assemblyai` SDK, run as a child process by
 * test/contract/streaming-sdk.test.ts. Why a child: the SDK accepts only `wss://` and has no option for a CA,
 * and Node reads `NODE_EXTRA_CA_CERTS` (how it can trust the sandbox's self-signed certificate) only at
 * process start. Input: one JSON argument (below). Output: one JSON line per SDK event, then `done`.
 */
import { readFile } from 'node:fs/promises';
import { AssemblyAI, type StreamingTranscriberParams } from 'assemblyai';

interface Plan {
  /** The sandbox's https:// URL (the token route) and wss:// socket URL. */
  httpsUrl: string;
  wssUrl: string;
  apiKey: string;
  /** Authenticate with a temporary token made by `createTemporaryToken` instead of the key. */
  useToken: boolean;
  /** 16 kHz s16le PCM, a whole number of 100 ms chunks. */
  pcmPath: string;
  params: Partial<StreamingTranscriberParams>;
}

const plan = JSON.parse(process.argv[2]!) as Plan;
const out = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`);

async function main(): Promise<void> {
  const client = new AssemblyAI({ apiKey: plan.apiKey, streamingBaseUrl: plan.httpsUrl });
  let auth: { token: string } | Record<string, never> = {};
  if (plan.useToken) {
    const token = await client.streaming.createTemporaryToken({ expires_in_seconds: 60 });
    out({ event: 'token', length: token.length });
    auth = { token };
  }
  const transcriber = client.streaming.transcriber({
    websocketBaseUrl: plan.wssUrl,
    sampleRate: 16_000,
    ...auth,
    ...plan.params,
  });
  transcriber.on('turn', (turn) => out({ event: 'turn', turn }));
  // The SDK dispatches SpeechStarted to an `on('speechStarted')` listener, but 4.41.5 declares no `on`
  // overload for it (only the StreamingListeners type has it), hence the cast.
  const on = transcriber.on.bind(transcriber) as (event: string, listener: (data: unknown) => void) => void;
  on('speechStarted', (data) => out({ event: 'speechStarted', data }));
  transcriber.on('error', (error) => out({ event: 'error', message: error.message }));
  transcriber.on('close', (code, reason) => out({ event: 'close', code, reason }));
  const begin = await transcriber.connect();
  out({ event: 'open', begin });
  const pcm = await readFile(plan.pcmPath);
  const chunk = 3200; // 100 ms at 16 kHz
  const started = performance.now();
  for (let i = 0; i * chunk < pcm.length; i++) {
    // Real-time pace against the clock, so timer drift does not add up to a burst or a lag.
    const due = started + i * 100 - performance.now();
    if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
    const part = pcm.subarray(i * chunk, (i + 1) * chunk);
    transcriber.sendAudio(part.buffer.slice(part.byteOffset, part.byteOffset + part.byteLength));
  }
  await transcriber.close(true, 30_000);
  out({ event: 'closed' });
}

main().then(
  () => out({ event: 'done' }),
  (error: unknown) => {
    out({ event: 'failed', message: error instanceof Error ? error.message : String(error) });
    process.exitCode = 1;
  },
);
