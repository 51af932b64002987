/**
 * Sentiment accuracy of the transcription emulator on spoken customer-service sentences: each sentence of
 * test/fixtures/sentiment-sentences.json is spoken with flite, uploaded to a sandbox over HTTP, transcribed by
 * the real recogniser with `sentiment_analysis: true`, and the label compared with the hand label. Printed for
 * the raw text and for what was recognised, per scorer: AFINN as the emulator used it before (the `sentiment`
 * package, neutral band 0.1), VADER, wink-sentiment, and the emulator's scorer now (AFINN + support-call
 * extension, negation, intensifiers); "service" is what the transcript's own sentiment_analysis_results say.
 *
 *   cd packages/sandbox && pnpm exec tsx bench/sentiment-accuracy.ts [fixture.json]   (BENCH_VOICE=kal16 BENCH_JOBS=2)
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import AfinnSentiment from 'sentiment';
import { startSandbox, synthesizeSpeech } from '../src/index.js';
import { classifySentiment, type Sentiment } from '../src/transcription/intelligence/index.js';

const require = createRequire(import.meta.url);
const vader = require('vader-sentiment') as {
  SentimentIntensityAnalyzer: { polarity_scores(text: string): { compound: number } };
};
const wink = require('wink-sentiment') as (text: string) => { normalizedScore: number };

const VOICE = process.env.BENCH_VOICE ?? 'kal16';
const JOBS = Number(process.env.BENCH_JOBS ?? 2);

interface Labelled {
  text: string;
  label: Sentiment;
}

const afinn = new AfinnSentiment();
const SCORERS: Record<string, (text: string) => Sentiment> = {
  'afinn (before)': (text) => {
    const { score, comparative } = afinn.analyze(text);
    if (score === 0 || Math.abs(comparative) < 0.1) return 'NEUTRAL';
    return score > 0 ? 'POSITIVE' : 'NEGATIVE';
  },
  vader: (text) => {
    const { compound } = vader.SentimentIntensityAnalyzer.polarity_scores(text);
    return compound >= 0.05 ? 'POSITIVE' : compound <= -0.05 ? 'NEGATIVE' : 'NEUTRAL';
  },
  wink: (text) => {
    const { normalizedScore } = wink(text);
    return normalizedScore > 0 ? 'POSITIVE' : normalizedScore < 0 ? 'NEGATIVE' : 'NEUTRAL';
  },
  'emulator (after)': (text) => classifySentiment(text).sentiment,
};

/** The transcript's label: the sentence results' label weighted by confidence, NEUTRAL when they cancel. */
function serviceLabel(results: { sentiment: Sentiment; confidence: number }[]): Sentiment {
  let sum = 0;
  for (const r of results)
    sum += r.sentiment === 'POSITIVE' ? r.confidence : r.sentiment === 'NEGATIVE' ? -r.confidence : 0;
  return sum > 0 ? 'POSITIVE' : sum < 0 ? 'NEGATIVE' : 'NEUTRAL';
}

async function main(): Promise<void> {
  // A path argument (relative to the working directory) measures another fixture, e.g. the held-out set.
  const file = process.argv[2] ?? new URL('../test/fixtures/sentiment-sentences.json', import.meta.url);
  const { sentences } = JSON.parse(await readFile(file, 'utf8')) as { sentences: Labelled[] };
  const box = await startSandbox({ store: false, transcription: { rateLimit: false } });
  const key = box.transcription!.apiKey;
  const headers = { authorization: key, 'content-type': 'application/json' };

  async function transcribe(text: string): Promise<{ text: string; service: Sentiment }> {
    const wav = await synthesizeSpeech(text, { voice: VOICE });
    const upload = await fetch(`${box.url}/v2/upload`, {
      method: 'POST',
      headers: { authorization: key },
      body: new Uint8Array(await readFile(wav)),
    }).then((r) => r.json() as Promise<{ upload_url: string }>);
    const created = await fetch(`${box.url}/v2/transcript`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        audio_url: upload.upload_url,
        speech_models: ['universal-2'],
        sentiment_analysis: true,
      }),
    }).then((r) => r.json() as Promise<{ id: string }>);
    for (;;) {
      const t = (await fetch(`${box.url}/v2/transcript/${created.id}`, { headers }).then((r) =>
        r.json(),
      )) as {
        status: string;
        text: string | null;
        error?: string;
        sentiment_analysis_results: { sentiment: Sentiment; confidence: number }[] | null;
      };
      if (t.status === 'completed') {
        return { text: t.text ?? '', service: serviceLabel(t.sentiment_analysis_results ?? []) };
      }
      if (t.status === 'error') throw new Error(`transcript ${created.id}: ${t.error}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  const heard: { text: string; service: Sentiment }[] = new Array(sentences.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: JOBS }, async () => {
      while (next < sentences.length) {
        const i = next++;
        heard[i] = await transcribe(sentences[i]!.text);
      }
    }),
  );
  await box.close();

  const total = sentences.length;
  const pct = (n: number) => `${n}/${total} (${((100 * n) / total).toFixed(1)}%)`;
  console.log(`${total} sentences, voice ${VOICE}\n`);
  console.log(`${'scorer'.padEnd(18)} ${'raw text'.padEnd(16)} recognised`);
  for (const [name, score] of Object.entries(SCORERS)) {
    const raw = sentences.filter((s) => score(s.text) === s.label).length;
    const spoken = sentences.filter((s, i) => score(heard[i]!.text) === s.label).length;
    console.log(`${name.padEnd(18)} ${pct(raw).padEnd(16)} ${pct(spoken)}`);
  }
  const service = sentences.filter((s, i) => heard[i]!.service === s.label).length;
  console.log(`${'service results'.padEnd(18)} ${''.padEnd(16)} ${pct(service)}`);
  if (process.env.BENCH_VERBOSE) {
    sentences.forEach((s, i) => {
      const got = heard[i]!;
      if (got.service !== s.label)
        console.log(`  ${s.label} -> ${got.service}: "${s.text}" heard "${got.text}"`);
    });
  }
}

await main();
