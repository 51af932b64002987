/**
 * What a typical user of `@x/transcription` ships in a bundle (an edge function or a worker; the API key
 * does not belong in a browser): one client, a transcript from a URL waited for, its captions, one page of
 * the list. size-limit bundles this with esbuild (minified, browser platform, @x/core, ky and zod/mini
 * included) and checks the gzip size against the limit in package.json.
 */
import { TranscriptionClient } from '../dist/index.js';

const client = new TranscriptionClient({ apiKey: 'example-key' });

export async function handler(): Promise<Response> {
  const call = await client.transcripts.transcribe({
    audio_url: 'https://example.com/call.mp3',
    speech_models: ['universal-2'],
    sentiment_analysis: true,
  });
  const srt = await client.transcripts.subtitles(call.id, 'srt');
  const recent = await client.transcripts.list({ limit: 10 });
  return Response.json({ text: call.text, srt, recent: recent.data.length });
}
