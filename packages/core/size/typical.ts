/**
 * What a typical browser user of `@x/core` ships: one client with bearer auth, one small zod/mini
 * response schema, one request. size-limit bundles this with esbuild (minified, browser platform,
 * ky and zod included) and checks the gzip size against the limit in package.json.
 */
import * as z from 'zod/mini';
import { BaseClient, bearerAuth } from '../dist/index.js';

const Transcript = z.looseObject({
  id: z.string(),
  status: z.string(),
  text: z.string(),
  duration_ms: z.number(),
  words: z.array(z.looseObject({ text: z.string(), start_ms: z.number(), end_ms: z.number() })),
});

const client = new BaseClient(
  { baseURL: 'https://api.example.com/v1', auth: bearerAuth('sk_live_example') },
  { packageName: '@x/example', packageVersion: '1.0.0' },
);

client
  .request({ method: 'GET', path: '/transcripts/tr_123', schema: Transcript })
  .then((transcript) => console.log(transcript.text));
