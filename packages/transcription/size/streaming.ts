/**
 * What a browser page ships for live transcription with `@x/transcription/streaming`: a transcriber that gets
 * temporary tokens from its own server, audio in, turns out, close. The microphone helper is left out (it is
 * imported only by pages that capture there). size-limit bundles this with esbuild (minified, browser
 * platform, @x/core and zod/mini included) and checks the gzip size against the limit in package.json.
 */
import { StreamingTranscriber } from '../dist/streaming.js';

const transcriber = new StreamingTranscriber(
  { speech_model: 'u3-rt-pro', sample_rate: 16000, format_turns: true },
  { getToken: () => fetch('/streaming-token').then((r) => r.json() as Promise<{ token: string }>) },
);

export async function live(audio: AsyncIterable<Int16Array>): Promise<void> {
  transcriber.on('turn', (turn) => console.log(turn.end_of_turn ? 'final' : 'partial', turn.transcript));
  await transcriber.connect();
  for await (const chunk of audio) transcriber.sendAudio(chunk);
  await transcriber.close();
}
