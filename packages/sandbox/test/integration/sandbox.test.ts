/** startSandbox({ store, transcription, realtime }): what starts, what is refused, and close(). */
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/index.js';

const open: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
});

describe('startSandbox', () => {
  it('starts the store when no emulator is named, as before', async () => {
    const s = await startSandbox();
    open.push(s);
    expect(s.store.url).toBe(s.url);
    expect((await fetch(`${s.url}/wp-json/wc/v3`)).status).toBe(200);
  });

  it('leaves the store out with store: false; the server then answers 404 everywhere', async () => {
    const s = await startSandbox({ store: false });
    open.push(s);
    expect(s.store).toBeUndefined();
    const res = await fetch(`${s.url}/wp-json/wc/v3`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: 'not found' });
    await s.close();
    await s.close();
  });

  it('starts the store with its defaults for store: true, and accepts transcription/realtime: false', async () => {
    const s = await startSandbox({ store: true, transcription: false, realtime: false });
    open.push(s);
    expect(s.store.consumerKey).toMatch(/^ck_/);
  });

  it('serves the store and the transcription emulator from one server, each on its own paths', async () => {
    const s = await startSandbox({ transcription: true });
    open.push(s);
    expect(s.transcription?.url).toBe(s.url);
    const list = await fetch(`${s.url}/v2/transcript`, {
      headers: { authorization: s.transcription!.apiKey },
    });
    expect(list.status).toBe(200);
    expect(await list.json()).toMatchObject({ transcripts: [] });
    expect((await fetch(`${s.url}/wp-json/wc/v3`)).status).toBe(200);
    await expect(
      startSandbox({ transcription: { rateLimit: { limit: 0, intervalMs: 1000 } } }),
    ).rejects.toThrow(RangeError);
  });

  it('starts the realtime emulator next to the store, and refuses its bad options before starting anything', async () => {
    const s = await startSandbox({ store: {}, realtime: true });
    try {
      expect(s.realtime?.wsUrl).toBe(s.url.replace('http', 'ws'));
      expect(s.realtime?.key).toBe('sandbox_dev_realtime_key');
    } finally {
      await s.close();
    }
    await expect(startSandbox({ realtime: { maxPayloadBytes: 0 } })).rejects.toThrow(RangeError);
  });

  it('refuses a dataFile without the store, and an impossible rate limit', async () => {
    await expect(startSandbox({ store: false, dataFile: '/tmp/x-sandbox-unused.json' })).rejects.toThrow(
      'dataFile persists the store',
    );
    await expect(startSandbox({ store: { rateLimit: { limit: 0, intervalMs: 1000 } } })).rejects.toThrow(
      RangeError,
    );
  });

  it('a port already in use rejects (and what had started is closed again)', async () => {
    const first = await startSandbox();
    open.push(first);
    const port = Number(new URL(first.url).port);
    await expect(startSandbox({ port })).rejects.toThrow(/EADDRINUSE/);
  });
});
