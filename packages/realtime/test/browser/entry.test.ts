import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Member } from '../../src/client/presence.js';
import type { Channel, PresenceChannel, PrivateChannel, ResubscribedData } from '../../src/index.js';
import { useChannel, useEvent, usePresence } from '../../src/react.js';

/** React is an optional peer: an app that never imports `@x/realtime/react` must not pull it in. */
describe('entries', () => {
  it('the main entry bundles without React; the react entry imports it', async () => {
    const inputs = async (entry: string) => {
      const result = await build({
        entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
        bundle: true,
        write: false,
        format: 'esm',
        platform: 'browser',
        metafile: true,
        logLevel: 'silent',
        external: ['#websocket'],
      });
      return Object.keys(result.metafile.inputs);
    };
    const react = (files: string[]) =>
      files.filter((file) => /node_modules\/(\.pnpm\/)?react(-dom)?[@/]/.test(file));
    expect(react(await inputs('../../src/index.ts'))).toEqual([]);
    expect(react(await inputs('../../src/react.ts')).length).toBeGreaterThan(0);
  });
});

describe('hook types', () => {
  it('types the channel by its prefix and the handler by the channel', () => {
    expectTypeOf(useChannel<'presence-lobby'>).returns.toEqualTypeOf<PresenceChannel<
      Record<string, unknown>
    > | null>();
    expectTypeOf(useChannel<'private-room'>).returns.toEqualTypeOf<PrivateChannel | null>();
    expectTypeOf(useChannel<'room'>).returns.toEqualTypeOf<Channel | null>();
    expectTypeOf(usePresence<{ name: string }>)
      .returns.toHaveProperty('me')
      .toEqualTypeOf<Member<{ name: string }> | null>();
    const channel = null as PresenceChannel<{ name: string }> | null;
    // Reserved events are typed by the channel's event map; this is never called, only checked.
    const check = () => {
      useEvent(channel, 'pusher:member_added', (member) =>
        expectTypeOf(member).toEqualTypeOf<Member<{ name: string }>>(),
      );
      useEvent(channel, 'pusher:resubscribed', (data) =>
        expectTypeOf(data).toEqualTypeOf<ResubscribedData>(),
      );
      useEvent<{ text: string }>(channel, 'message', (data) => expectTypeOf(data.text).toBeString());
    };
    expectTypeOf(check).toBeFunction();
  });
});
