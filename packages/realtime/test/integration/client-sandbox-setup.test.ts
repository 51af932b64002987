/**
 * Set-up mistakes a client makes in Node against the sandbox, and what it says about them: a relative auth
 * endpoint (Node's fetch has no page to resolve it against), and TLS against a host that speaks plain HTTP.
 */
import { describe, expect, it } from 'vitest';
import { RealtimeClient, RealtimeError, ValidationError } from '../../src/index.js';
import { waitFor, wsTarget } from '../helpers/sandbox.js';
import { clientSandbox } from '../helpers/sandbox-hooks.js';

const { box, fleet } = clientSandbox();

describe('a relative auth endpoint outside a browser', () => {
  it.each(['channelAuthorization', 'userAuthentication'] as const)(
    '%s: refused at construction, naming the field and the fix',
    (field) => {
      const make = () =>
        new RealtimeClient(box.rt.key, {
          ...wsTarget(box.rt),
          forceTLS: false,
          [field]: { endpoint: '/pusher/auth' },
        });
      expect(make).toThrow(ValidationError);
      expect(make).toThrow(`${field}.endpoint`);
      expect(make).toThrow(/is relative: outside a browser use an absolute URL or a customHandler/);
    },
  );

  it('an absolute endpoint is accepted, and subscribes', async () => {
    const client = await fleet.connected('ada');
    await expect(client.subscribe('private-absolute').subscribed).resolves.toBeDefined();
  });

  it('the default endpoint (relative) fails the subscription with the fix, not "Failed to parse URL"', async () => {
    const client = await fleet.connected('ada', { channelAuthorization: undefined });
    const channel = client.subscribe('private-default-endpoint');
    const error = await channel.subscribed.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RealtimeError);
    expect(String(error)).toMatch(
      /\/pusher\/auth is relative: outside a browser use an absolute URL or a customHandler/,
    );
    expect(String(error)).not.toMatch(/Failed to parse URL/);
    // The connection itself is fine: a public channel still subscribes.
    await expect(client.subscribe('public-after').subscribed).resolves.toBeDefined();
    await waitFor(() => client.connection.state === 'connected');
  });
});
