import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RealtimeBox, startRealtimeBox } from '../helpers/sandbox.js';
import { launch } from './harness.js';

/**
 * The README's React page, as printed (only the sandbox's port changes), bundled against the build
 * (`@x/realtime/react` through the package's exports) and run in Chromium against the sandbox.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
let box: RealtimeBox;
let browser: Browser;
let http: Server;
beforeAll(async () => {
  [box, browser] = await Promise.all([startRealtimeBox(), launch()]);
});
afterAll(async () => {
  await browser?.close();
  http?.close();
  await box?.close();
});

it('README "React": the page connects and shows an order published with the server SDK', async () => {
  const readme = await readFile(`${root}README.md`, 'utf8');
  const section = readme.slice(readme.indexOf('## React\n'));
  const app = /```tsx\n([\s\S]*?)```/
    .exec(section)![1]!
    .replace('wsPort: 8787', `wsPort: ${new URL(box.rt.wsUrl).port}`);
  const main = `import { createRoot } from 'react-dom/client';\nimport App from './App';\ncreateRoot(document.body).render(<App />);`;
  const result = await build({
    stdin: { contents: main, loader: 'tsx', resolveDir: root },
    plugins: [
      {
        name: 'readme-app',
        setup(b) {
          b.onResolve({ filter: /^\.\/App$/ }, () => ({ path: 'App.tsx', namespace: 'readme' }));
          b.onLoad({ filter: /.*/, namespace: 'readme' }, () => ({
            contents: app,
            loader: 'tsx',
            resolveDir: root,
          }));
        },
      },
    ],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"development"' },
    logLevel: 'silent',
  });
  const script = result.outputFiles[0]!.text;
  http = createServer((req, res) => {
    if (req.url === '/app.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><link rel="icon" href="data:,"><script type="module" src="/app.js"></script>');
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto(`http://127.0.0.1:${(http.address() as AddressInfo).port}/`);
  await page.getByText('connected: shipped nothing yet').waitFor({ timeout: 10_000 });
  await box.server().trigger('orders', 'order-shipped', { id: 42 });
  await page.getByText('connected: shipped 42').waitFor({ timeout: 10_000 });
  expect(errors).toEqual([]);
  await page.close();
});
