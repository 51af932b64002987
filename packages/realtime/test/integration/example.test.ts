/**
 * The user-facing scripts run as a user would run them, each in its own process (`import ... from
 * '@x/realtime'` and `'@x/realtime/server'`), against this package's source rather than a `dist` that may be
 * stale, and against the sandbox's realtime emulator. In Node 20 the client's default socket comes through
 * the `#websocket` import map, which points into `dist`, so the package must have been built (turbo's
 * `test` depends on `build`).
 */
import { spawn } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Sandbox, startSandbox } from '@x/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const clientSource = fileURLToPath(new URL('../../src/index.ts', import.meta.url));
const serverSource = fileURLToPath(new URL('../../src/server.ts', import.meta.url));

// Without Pusher credentials the example starts a sandbox of its own instead of calling Pusher.
const {
  PUSHER_APP_ID: _id,
  PUSHER_KEY: _key,
  PUSHER_SECRET: _secret,
  PUSHER_CLUSTER: _cluster,
  ...env
} = process.env;

interface Running {
  /** Everything written to stdout so far. */
  stdout(): string;
  /** Resolves with stdout once `pattern` has been printed; rejects if the process ends first or after `ms`. */
  printed(pattern: RegExp, ms?: number): Promise<string>;
  /** The exit code; rejects with stdout and stderr when it is not 0. */
  exited: Promise<void>;
  /** Ends the process; resolves once it is gone and its file removed. */
  kill(): Promise<void>;
}

let count = 0;

/**
 * Starts a script in its own process (`node --import tsx`), with the package imports pointed at the source.
 * The file lives next to this test for the run, so `@x/sandbox` and `tsx` resolve as they do here.
 * `asPrinted` runs it as a reader would: `node file.mjs`, unchanged, the package imports resolving to the
 * built package (Node's self-reference by package name), with `extraEnv` added.
 */
async function start(
  code: string,
  name: string,
  timeoutMs = 60_000,
  asPrinted?: { extraEnv: Record<string, string> },
): Promise<Running> {
  const file = `${root}test/integration/.${name}-${process.pid}-${++count}.${asPrinted ? 'mjs' : 'ts'}`;
  await writeFile(
    file,
    asPrinted
      ? code
      : code
          .replaceAll("from '@x/realtime/server'", `from ${JSON.stringify(serverSource)}`)
          .replaceAll("from '@x/realtime'", `from ${JSON.stringify(clientSource)}`),
  );
  const child = asPrinted
    ? spawn(process.execPath, [file], { cwd: root, env: { ...env, ...asPrinted.extraEnv } })
    : spawn(process.execPath, ['--import', 'tsx', file], { cwd: root, env });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill(), timeoutMs);
  const exited = new Promise<void>((resolve, reject) => {
    child.on('close', async (exitCode, signal) => {
      clearTimeout(timer);
      await rm(file, { force: true });
      if (exitCode === 0) resolve();
      else
        reject(new Error(`${name} ended with ${exitCode ?? signal}\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    });
  });
  exited.catch(() => {});
  return {
    stdout: () => stdout,
    async printed(pattern, ms = 20_000) {
      const deadline = Date.now() + ms;
      while (!pattern.test(stdout)) {
        if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
          throw new Error(
            `${name} did not print ${pattern} (exit ${child.exitCode} ${child.signalCode})\nstdout:\n${stdout}\nstderr:\n${stderr}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return stdout;
    },
    exited,
    kill() {
      child.kill();
      return exited.catch(() => {});
    },
  };
}

let sandbox: Sandbox<false>;
beforeAll(async () => {
  sandbox = await startSandbox({ store: false, realtime: true });
});
afterAll(() => sandbox?.close());

it('examples/quickstart.ts runs end to end against a sandbox of its own', async () => {
  const example = await start(await readFile(`${root}examples/quickstart.ts`, 'utf8'), 'example');
  await example.exited;
  const stdout = example.stdout();
  expect(stdout).toMatch(/^connection: connecting -> connected \(socket \d+\.\d+\)$/m);
  expect(stdout).toMatch(/^subscribed: private-orders, presence-lobby as ada$/m);
  expect(stdout).toMatch(/^member added: bob \(BOB\); 2 members$/m);
  expect(stdout).toMatch(/^received order-shipped: \{"id":42\}$/m);
  expect(stdout).toMatch(/^presence-lobby users \(HTTP API\): ada, bob$/m);
  expect(stdout).toMatch(
    /^as expected: Invalid trigger input: data: is 11000 bytes once encoded, over maxPayloadBytes 10240/m,
  );
  expect(stdout).toMatch(/^webhook verified: channel_occupied private-orders$/m);
  expect(stdout).toMatch(/^webhook verified: channel_occupied presence-lobby$/m);
  expect(stdout).toMatch(/^webhook verified: member_added presence-lobby ada$/m);
  expect(stdout).toMatch(/^webhook verified: member_added presence-lobby bob$/m);
}, 90_000);

/** The README's `## Quick start` section, its `###` subsections included. */
async function quickStart(): Promise<string> {
  const readme = await readFile(`${root}README.md`, 'utf8');
  return /\n## Quick start\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
}

it("the README's quick start runs as printed: node quickstart.mjs beside the sandbox", async () => {
  const section = await quickStart();
  const blocks = [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);
  expect(blocks).toHaveLength(1);
  // What the README tells the reader to do, which is what this test does.
  expect(section).toContain('Save it as `quickstart.mjs`');
  expect(section).toMatch(/^node quickstart\.mjs /m);
  expect(section).toMatch(/^npx x-sandbox --realtime /m);
  // The block's one switch: the sandbox's port, 8787 unless SANDBOX_PORT says otherwise (this sandbox is on 0).
  expect(blocks[0]).toContain('process.env.SANDBOX_PORT ?? 8787');
  const port = new URL(sandbox.realtime!.url).port;
  const run = await start(blocks[0]!, 'quickstart', 60_000, { extraEnv: { SANDBOX_PORT: port } });
  await run.exited;
  expect(run.stdout()).toBe('order 42 shipped\n');
}, 90_000);

it("the README's framework quick start, both blocks as printed, runs against the sandbox", async () => {
  const section = await quickStart();
  const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const serverBlock = blocks.find((b) => b.includes("from '@x/realtime/server'"));
  const clientBlock = blocks.find((b) => b.includes("from '@x/realtime'"));
  expect(blocks).toHaveLength(2);
  expect(serverBlock).toBeDefined();
  expect(clientBlock).toBeDefined();

  // Only the placeholder credentials and hosts change: the rest runs as a reader would paste it.
  const rt = sandbox.realtime!;
  const { hostname, port } = new URL(rt.url);
  const serverOptions = {
    appId: rt.appId,
    key: rt.key,
    secret: rt.secret,
    host: hostname,
    port: Number(port),
    useTLS: false,
  };
  const server = serverBlock!.replace(
    /new RealtimeServer\(\{[^}]*\}\)/,
    `new RealtimeServer(${JSON.stringify(serverOptions)})`,
  );
  expect(server).toContain(JSON.stringify(serverOptions));

  // The server block serves the client's auth requests: its POST handler behind node:http (an addition).
  const authServer = await start(
    `${server}
import { createServer } from 'node:http';
const http = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  const response = await POST(new Request(\`http://127.0.0.1\${req.url}\`, { method: 'POST', headers, body: Buffer.concat(chunks) }));
  res.writeHead(response.status, { 'content-type': response.headers.get('content-type') ?? 'text/plain' }).end(await response.text());
});
http.listen(0, '127.0.0.1', () => {
  const { port } = http.address() as import('node:net').AddressInfo;
  console.log(\`auth endpoint: http://127.0.0.1:\${port}/pusher/auth\`);
});
`,
    'readme-auth',
  );
  try {
    const authUrl = /^auth endpoint: (\S+)$/m.exec(await authServer.printed(/^auth endpoint: /m))![1]!;
    const client = clientBlock!
      .replace("new RealtimeClient('app-key',", `new RealtimeClient(${JSON.stringify(rt.key)},`)
      .replace("cluster: 'eu',", `wsHost: '${hostname}', wsPort: ${Number(port)}, forceTLS: false,`)
      .replace("endpoint: '/pusher/auth'", `endpoint: ${JSON.stringify(authUrl)}`);
    expect(client).toContain(rt.key);
    expect(client).toContain(authUrl);
    expect(client).toContain(`wsPort: ${Number(port)}`);
    // Added after the block: say when subscribed, and leave once the event has come.
    const browser = await start(
      `${client}
await orders.subscribed;
console.log('harness: subscribed');
orders.bind('order-shipped', () => setTimeout(() => client.disconnect(), 20));
`,
      'readme-client',
    );
    try {
      await browser.printed(/^harness: subscribed$/m);
      // A second run of the server block, as printed, publishes the event the subscribed client prints.
      await (await start(server, 'readme-trigger')).exited;
      await browser.exited;
      expect(browser.stdout()).toMatch(/^order 42 shipped$/m);
    } finally {
      await browser.kill();
    }
  } finally {
    await authServer.kill();
  }
}, 90_000);
