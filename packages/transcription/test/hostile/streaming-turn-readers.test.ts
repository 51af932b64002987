/**
 * Hostile review of the streaming transcriber (issue 18): every promise of `for await` settles. Two
 * `next()` calls in flight at once (`Promise.all`, or two loops over the same transcriber) each wait for a
 * turn; the second replaced the first's resolver, so the first never settled, not even when the transcriber
 * closed.
 */
import { expect, it } from 'vitest';
import { StreamingTranscriber, type TurnEvent } from '../../src/streaming/index.js';
import { deafSandboxForFile, PARAMS } from '../helpers/deaf-sandbox.js';

const box = deafSandboxForFile();

it('two next() calls waiting at once both settle when the transcriber closes', async () => {
  const transcriber = new StreamingTranscriber(PARAMS, {
    apiKey: box.transcription.apiKey,
    baseUrl: box.url,
  });
  await transcriber.connect();
  const turns = transcriber[Symbol.asyncIterator]();
  const settled: IteratorResult<TurnEvent>[] = [];
  const first = turns.next().then((r) => settled.push(r));
  const second = turns.next().then((r) => settled.push(r));
  await transcriber.close();
  // The iterator ends synchronously inside close(); give its resolutions one macrotask to run.
  await new Promise((resolve) => setImmediate(resolve));
  expect(settled).toEqual([
    { value: undefined, done: true },
    { value: undefined, done: true },
  ]);
  await Promise.all([first, second]);
});
