#!/usr/bin/env node
/**
 * The sandbox for the Bun and Deno smoke (.ci/runtimes.sh), under Node: store (demo data), transcription
 * and realtime on one port, plus a WAV of synthesised speech to upload. Prints one JSON line with the URLs,
 * keys and the audio path (what .ci/smoke/quickstarts.mjs reads from X_SMOKE), then runs until SIGTERM
 * or until its stdin closes (so it cannot outlive the script that started it).
 */
import { startSandbox, synthesizeSpeech } from '@x/sandbox';

const sandbox = await startSandbox({ store: { seed: 'demo' }, transcription: true, realtime: true });
const audio = await synthesizeSpeech('hello, my order number is four five six.');
const { realtime: rt, store, transcription } = sandbox;
console.log(
  JSON.stringify({
    url: sandbox.url,
    store: { consumerKey: store.consumerKey, consumerSecret: store.consumerSecret },
    transcription: { apiKey: transcription.apiKey },
    realtime: { appId: rt.appId, key: rt.key, secret: rt.secret, url: rt.url },
    audio,
  }),
);

let closing = false;
const close = async () => {
  if (closing) return;
  closing = true;
  await sandbox.close();
  process.exit(0);
};
process.on('SIGTERM', close);
process.on('SIGINT', close);
process.stdin.on('end', close).on('close', close).resume();
