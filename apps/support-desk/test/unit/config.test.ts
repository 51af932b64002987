import { describe, expect, it } from 'vitest';
import {
  configFromEnv,
  type SandboxDefaults,
  streamingHostFor,
  websocketBase,
} from '../../src/server/config.js';

const sandbox: SandboxDefaults = {
  store: { url: 'http://127.0.0.1:8787', consumerKey: 'ck', consumerSecret: 'cs' },
  transcription: { url: 'http://127.0.0.1:8787', apiKey: 'sandbox-key' },
  realtime: { appId: '1', key: 'k', secret: 's', url: 'http://127.0.0.1:8787' },
};

describe('the streaming host of live calls', () => {
  it('is the sandbox without a key, AssemblyAI’s with one, the EU host with the EU REST host', () => {
    expect(configFromEnv({}, sandbox).transcription.streamingBaseUrl).toBe('http://127.0.0.1:8787');
    const us = configFromEnv({ ASSEMBLYAI_API_KEY: 'key' }, sandbox).transcription;
    expect(us.streamingBaseUrl).toBe('https://streaming.assemblyai.com');
    const eu = configFromEnv(
      { ASSEMBLYAI_API_KEY: 'key', ASSEMBLYAI_BASE_URL: 'https://api.eu.assemblyai.com' },
      sandbox,
    ).transcription;
    expect(eu.streamingBaseUrl).toBe('https://streaming.eu.assemblyai.com');
    const chosen = configFromEnv(
      {
        ASSEMBLYAI_API_KEY: 'key',
        ASSEMBLYAI_STREAMING_URL: 'https://streaming.us.assemblyai.com',
        ASSEMBLYAI_STREAMING_MODEL: 'u3-rt-pro',
      },
      sandbox,
    ).transcription;
    expect(chosen).toMatchObject({
      streamingBaseUrl: 'https://streaming.us.assemblyai.com',
      streamingModel: 'u3-rt-pro',
    });
    expect(() => configFromEnv({ ASSEMBLYAI_STREAMING_URL: 'not a url' }, sandbox)).toThrow(
      /ASSEMBLYAI_STREAMING_URL/,
    );
  });

  it('is shown to the page as a WebSocket URL', () => {
    expect(websocketBase('https://streaming.assemblyai.com')).toBe('wss://streaming.assemblyai.com');
    expect(websocketBase('http://127.0.0.1:8787/')).toBe('ws://127.0.0.1:8787');
    expect(streamingHostFor(undefined)).toBe('https://streaming.assemblyai.com');
    expect(streamingHostFor('https://api.assemblyai.com')).toBe('https://streaming.assemblyai.com');
  });
});
