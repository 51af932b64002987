/**
 * Transcribes a short customer call with AssemblyAI when ASSEMBLYAI_API_KEY is set (ASSEMBLYAI_BASE_URL for
 * the EU host), otherwise with a local sandbox (Debian packages: flite pocketsphinx pocketsphinx-en-us sox):
 *   pnpm --filter @x/transcription example [audio-file]
 */
import { startSandbox, synthesizeSpeech } from '@x/sandbox';
import { NotFoundError, TranscriptionClient } from '@x/transcription';

const apiKey = process.env.ASSEMBLYAI_API_KEY;
const sandbox = apiKey ? undefined : await startSandbox({ store: false, transcription: true });
const client = new TranscriptionClient({
  apiKey: apiKey ?? sandbox!.transcription!.apiKey,
  baseUrl: sandbox?.url ?? process.env.ASSEMBLYAI_BASE_URL,
});

// Local audio is uploaded first; with a real key and no file, the service fetches a public sample itself.
const spoken = [
  'hello, my order number is four five six.',
  'the package arrived broken and the driver was drunk. i am very angry and disappointed.',
].join(' ');
const file = process.argv[2] ?? (sandbox ? await synthesizeSpeech(spoken) : undefined);
let sent = 0;
const audioUrl = file
  ? (await client.files.upload(file, { onProgress: (p) => (sent = p.loaded) })).upload_url
  : 'https://assembly.ai/sports_injuries.mp3';
if (file) console.log(`uploaded ${sent} bytes`);

const statuses = new Set<string>();
const call = await client.transcripts.transcribe(
  {
    audio_url: audioUrl,
    speech_models: ['universal-3-5-pro', 'universal-2'], // required; ids in priority order
    sentiment_analysis: true,
    content_safety: true,
  },
  { onStatus: (t) => statuses.add(t.status) },
);
console.log(`status: ${[...statuses].join(' -> ')}`);
console.log(`text: ${call.text}`);
for (const s of call.sentiment_analysis_results ?? [])
  console.log(`sentiment: ${s.sentiment} (${s.confidence.toFixed(2)}) ${s.text}`);
const summary = call.content_safety_labels?.summary ?? {};
const flagged = Object.entries(summary).map(([label, c]) => `${label} ${c.toFixed(2)}`);
console.log(`content safety: ${flagged.join(', ') || 'nothing flagged'}`);

const srt = await client.transcripts.subtitles(call.id, 'srt', { chars_per_caption: 40 });
console.log(`srt:\n${srt.split('\n\n')[0]}`);
const { matches } = await client.transcripts.wordSearch(call.id, ['order']);
const hits = matches[0]?.timestamps.map(([start]) => start) ?? [];
console.log(`word search "order": ${hits.length} found${hits.length ? ` at ${hits.join(', ')} ms` : ''}`);

for (const t of (await client.transcripts.list({ limit: 3 })).data)
  console.log(`recent: ${t.id} ${t.status} created ${t.created}`);

await client.transcripts.get('00000000-0000-4000-8000-000000000000').catch((error: unknown) => {
  if (!(error instanceof NotFoundError)) throw error;
  console.log(`as expected: NotFoundError ${error.message}`);
});
await sandbox?.close();
