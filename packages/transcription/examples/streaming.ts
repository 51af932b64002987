/**
 * Live transcription of a WAV file, sent at the pace it was spoken, with AssemblyAI's Streaming v3 when
 * ASSEMBLYAI_API_KEY is set (ASSEMBLYAI_STREAMING_URL for the EU host), otherwise with a local sandbox
 * (Debian packages: flite pocketsphinx pocketsphinx-en-us python3-pocketsphinx sox):
 *   pnpm --filter @x/transcription example:streaming [16-kHz-mono-wav]
 */
import { createReadStream } from 'node:fs';
import { startSandbox, synthesizeSpeech } from '@x/sandbox';
import { readWav, TranscriptionClient } from '@x/transcription';

const apiKey = process.env.ASSEMBLYAI_API_KEY;
const sandbox = apiKey ? undefined : await startSandbox({ store: false, transcription: true });
const client = new TranscriptionClient({
  apiKey: apiKey ?? sandbox!.transcription!.apiKey,
  ...(sandbox ? { baseUrl: sandbox.url, streamingBaseUrl: sandbox.url } : {}),
  ...(process.env.ASSEMBLYAI_STREAMING_URL ? { streamingBaseUrl: process.env.ASSEMBLYAI_STREAMING_URL } : {}),
});

const file =
  process.argv[2] ?? (await synthesizeSpeech('hello, my order number is four five six.', { voice: 'slt' }));
const transcriber = client.streaming.transcriber({
  speech_model: 'universal-streaming-english',
  sample_rate: 16000,
  format_turns: true,
});
let partials = 0;
transcriber.on('turn', (turn) => {
  if (!turn.end_of_turn) partials++;
  else if (turn.turn_is_formatted) console.log(`final turn ${turn.turn_order}: ${turn.transcript}`);
});

const begin = await transcriber.connect();
console.log(`session ${begin.id} began`);
// readWav checks the header and resamples to the session's rate; it yields 100 ms chunks at real time.
for await (const chunk of await readWav(createReadStream(file), { sampleRate: 16000 })) {
  transcriber.sendAudio(chunk);
}
const termination = await transcriber.close();
console.log(`partial turns: ${partials > 0 ? 'yes' : 'none'}`);
console.log(`audio: ${termination?.audio_duration_seconds} s`);
await sandbox?.close();
