/** The public API's types: `store` is present unless the call says `store: false` (or a boolean decided at run time). */
import { describe, expectTypeOf, it } from 'vitest';
import {
  type Sandbox,
  type SandboxOptions,
  type SandboxSelection,
  type StoreSandbox,
  startSandbox,
} from '../../src/index.js';

// Never called: tsc checks these calls, the test only makes sure the file is part of the run.
async function calls(wide: SandboxOptions, selection: SandboxSelection, on: boolean) {
  expectTypeOf((await startSandbox()).store).toEqualTypeOf<StoreSandbox>();
  expectTypeOf((await startSandbox({ port: 0 })).store).toEqualTypeOf<StoreSandbox>();
  expectTypeOf((await startSandbox({ store: { seed: 'demo' } })).store).toEqualTypeOf<StoreSandbox>();
  expectTypeOf((await startSandbox({ store: {}, transcription: false })).store).toEqualTypeOf<StoreSandbox>();
  expectTypeOf((await startSandbox({ store: true })).store).toEqualTypeOf<StoreSandbox>();
  expectTypeOf((await startSandbox({ store: false })).store).toEqualTypeOf<undefined>();
  expectTypeOf((await startSandbox({ store: on })).store).toEqualTypeOf<StoreSandbox | undefined>();
  expectTypeOf((await startSandbox(wide)).store).toEqualTypeOf<StoreSandbox>();
  // A selection decided at run time (a config file, a flag) may leave the store out.
  expectTypeOf((await startSandbox(selection)).store).toEqualTypeOf<StoreSandbox | undefined>();
  // `Parameters<typeof startSandbox>[0]` (the last overload) is the everyday options type: store present.
  const again = (o: Parameters<typeof startSandbox>[0]) => startSandbox(o);
  expectTypeOf((await again({ port: 0 })).store).toEqualTypeOf<StoreSandbox>();
  // The shape tests and @x/store's helper use: spread caller options, then the store's.
  const box: Sandbox = await startSandbox({ port: 0, ...wide, store: { rateLimit: false, ...wide.store } });
  expectTypeOf(box.store.consumerKey).toEqualTypeOf<string>();
  // @ts-expect-error unknown top-level option
  await startSandbox({ port: 0, stor: {} });
  // @ts-expect-error unknown store option
  await startSandbox({ store: { rateLimt: false } });
  // @ts-expect-error unknown realtime option
  await startSandbox({ realtime: { cluster: 'mt1' } });
}

describe('types', () => {
  it('are checked by tsc (see calls above)', () => {
    expectTypeOf(calls).toBeFunction();
  });
});
