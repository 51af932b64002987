import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

/**
 * `@x/realtime/react` from the build, as an app loads it: node run on a small script in each module format,
 * from the package's directory so `@x/realtime` resolves to this package through its exports map. An app
 * that makes its client with the main entry and hands it to the provider must get one set of classes: a
 * second copy of the client inside the react entry breaks `instanceof`, keeps its own module state and
 * ships the client twice.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

const probe = `
function Probe() {
  const client = react.useRealtimeClient();
  const channel = client.subscribe('private-orders');
  seen = {
    client: client instanceof main.RealtimeClient,
    channel: channel instanceof main.PrivateChannel,
  };
  return null;
}
let seen;
// Server rendering runs the provider's render (which makes the client) and opens nothing.
renderToString(h(react.RealtimeProvider, { appKey: 'app-key', options: { cluster: 'eu' } }, h(Probe)));
let thrown;
try { renderToString(h(Probe)); } catch (error) { thrown = error; }
seen.error = thrown instanceof main.RealtimeError;
console.log(JSON.stringify(seen));
`;

const scripts = {
  cjs: `const main = require('@x/realtime');
const react = require('@x/realtime/react');
const { createElement: h } = require('react');
const { renderToString } = require('react-dom/server');
${probe}`,
  esm: `import * as main from '@x/realtime';
import * as react from '@x/realtime/react';
import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';
${probe}`,
};

it.each(['cjs', 'esm'] as const)('%s: the react entry shares the main entry’s classes', async (format) => {
  expect(existsSync(`${root}dist/react.cjs`), 'build @x/realtime first (turbo builds before test)').toBe(
    true,
  );
  const args = format === 'esm' ? ['--input-type=module', '-e', scripts.esm] : ['-e', scripts.cjs];
  const { stdout } = await run(process.execPath, args, { cwd: root });
  expect(JSON.parse(stdout)).toEqual({ client: true, channel: true, error: true });
});
