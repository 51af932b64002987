import { describe, expect, it } from 'vitest';
import { hmacSigner, RealtimeServer, signQuery } from '../../src/server.js';

/** Every vector of the protocol notes §2: Pusher's documentation app and the vectors computed for the notes. */
const app = { appId: 3, key: '278d425bdf160c739803', secret: '7ad3773142a6692b25b8', cluster: 'mt1' };
const masterKey = 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';
const server = new RealtimeServer({ ...app, encryptionMasterKeyBase64: masterKey });

describe('signature vectors (notes §2)', () => {
  it('1. private channel', async () => {
    expect(await server.authorizeChannel('1234.1234', 'private-foobar')).toEqual({
      auth: '278d425bdf160c739803:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4',
    });
  });

  it('2. presence channel: channel_data is the very text signed', async () => {
    const result = await server.authorizeChannel('1234.1234', 'presence-foobar', {
      user_id: 10,
      user_info: { name: 'Mr. Pusher' },
    });
    expect(result).toEqual({
      auth: '278d425bdf160c739803:afaed3695da2ffd16931f457e338e6c9f2921fa133ce7dac49f529792be6304c',
      channel_data: '{"user_id":10,"user_info":{"name":"Mr. Pusher"}}',
    });
  });

  it('3. user authentication', async () => {
    expect(await server.authenticateUser('1234.1234', { id: '12345' })).toEqual({
      auth: '278d425bdf160c739803:4708d583dada6a56435fb8bc611c77c359a31eebde13337c16ab43aa6de336ba',
      user_data: '{"id":"12345"}',
    });
  });

  it('4. HTTP API request', async () => {
    const signed = await signQuery(
      {
        key: app.key,
        method: 'POST',
        path: '/apps/3/events',
        body: '{"name":"foo","channels":["project-3"],"data":"{\\"some\\":\\"data\\"}"}',
        timestamp: 1353088179,
      },
      hmacSigner(app.secret),
    );
    expect(signed.stringToSign).toBe(
      'POST\n/apps/3/events\nauth_key=278d425bdf160c739803&auth_timestamp=1353088179&auth_version=1.0&body_md5=ec365a775a4cd0599faeb73354201b6f',
    );
    expect(signed.signature).toBe('da454824c97ba181a32ccc17a72625ba02771f50b50e1e7430e47a1f3f457e6c');
    expect(signed.params.at(-1)).toEqual(['auth_signature', signed.signature]);
  });

  it('5. encrypted channel shared secret', async () => {
    const result = await server.authorizeChannel('1234.1234', 'private-encrypted-foobar');
    expect(result.shared_secret).toBe('g3Au6SZ+UCU+IMfFsFva0rq+Gi4tzSHR6WCcWZbS9sY=');
    expect(result.auth).toMatch(/^278d425bdf160c739803:[0-9a-f]{64}$/);
  });

  it('6. webhook', async () => {
    const body = '{"time_ms":1327078148132,"events":[{"name":"channel_occupied","channel":"test_channel"}]}';
    const payload = await server.verifyWebhook(body, {
      'X-Pusher-Key': app.key,
      'X-Pusher-Signature': '709fdb84c03664445f7698120b0edf0acc1ab1c8c6e93a0368c61841d6b998aa',
    });
    expect(payload).toEqual({
      time_ms: 1327078148132,
      events: [{ name: 'channel_occupied', channel: 'test_channel' }],
      unrecognized: [],
    });
  });
});
