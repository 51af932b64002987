/**
 * Browser bundle of each client's streaming entry, as a page would ship it: esbuild (the version this repo
 * pins) bundles, for the browser platform, with minified syntax, whitespace and identifiers, ESM out (so the
 * page's exported function and all it reaches stay), then gzip level 9, as size-limit measures. Ours is
 * `size/streaming.ts`, the entry size-limit checks (the built `dist/streaming.js`: build first); the SDK's is
 * the same page written against `assemblyai/streaming` (its `browser` export).
 */
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

export interface BundleSize {
  label: string;
  minBytes: number;
  gzipBytes: number;
  /** Minified bytes each package put in the bundle (before gzip), largest first. */
  packages: [name: string, bytes: number][];
}

const root = new URL('..', import.meta.url).pathname;

/** The page of size/streaming.ts on the official SDK: token from the page's server, audio in, turns out, close. */
const SDK_PAGE = `
import { StreamingTranscriber } from 'assemblyai/streaming';

export async function live(audio: AsyncIterable<Int16Array>): Promise<void> {
  const { token } = await fetch('/streaming-token').then((r) => r.json() as Promise<{ token: string }>);
  const transcriber = new StreamingTranscriber({ token, speechModel: 'u3-rt-pro', sampleRate: 16000, formatTurns: true });
  transcriber.on('turn', (turn) => console.log(turn.end_of_turn ? 'final' : 'partial', turn.transcript));
  await transcriber.connect();
  for await (const chunk of audio) transcriber.sendAudio(chunk);
  await transcriber.close();
}
`;

/** The package an esbuild input path belongs to (a workspace package by its folder). */
function packageOf(input: string): string {
  const dependency = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (dependency) return dependency[1]!;
  if (input.startsWith('../core/')) return '@x/core';
  return input === 'page.ts' || input.startsWith('size/') ? '(page)' : '@x/transcription';
}

async function measure(label: string, entry: { path: string } | { contents: string }): Promise<BundleSize> {
  const result = await build({
    ...('path' in entry
      ? { entryPoints: [entry.path] }
      : { stdin: { contents: entry.contents, loader: 'ts', resolveDir: root, sourcefile: 'page.ts' } }),
    absWorkingDir: root,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    minify: true,
    treeShaking: true,
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  const packages = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(
    Object.values(result.metafile.outputs)[0]!.inputs,
  )) {
    const name = packageOf(input);
    if (bytesInOutput > 0) packages.set(name, (packages.get(name) ?? 0) + bytesInOutput);
  }
  return {
    label,
    minBytes: code.length,
    gzipBytes: gzipSync(code, { level: 9 }).length,
    packages: [...packages].sort((a, b) => b[1] - a[1]),
  };
}

export async function bundleSizes(): Promise<BundleSize[]> {
  return [
    await measure('@x/transcription/streaming', { path: `${root}size/streaming.ts` }),
    await measure('assemblyai/streaming 4.41.5', { contents: SDK_PAGE }),
  ];
}
