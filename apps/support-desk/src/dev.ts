/**
 * `pnpm dev` from the repository root runs this (scripts/dev.mjs starts the sandbox's own `dev` script beside
 * it). It waits for the sandbox, takes from it every service `.env` does not configure, starts whatever
 * emulator that sandbox lacks in-process, then the app server and Vite (which proxies /api to it), and prints
 * the one URL to open. Ctrl-C stops it all, with exit status 0.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  REALTIME_DEV_APP,
  type Sandbox,
  STORE_DEV_KEYS,
  startSandbox,
  TRANSCRIPTION_DEV_KEY,
} from '@x/sandbox';
import { createServer as createVite } from 'vite';
import { configuredServices, envSchema, type SandboxDefaults, websocketBase } from './server/config.js';
import { configFromEnv, startServer } from './server/index.js';

const envFile = fileURLToPath(new URL('../.env', import.meta.url));
if (existsSync(envFile)) process.loadEnvFile(envFile);

const SANDBOX_URL = (process.env.SANDBOX_URL ?? 'http://127.0.0.1:8787').replace(/\/$/, '');
const SANDBOX_WAIT_MS = Number(process.env.SANDBOX_WAIT_MS ?? 30_000);
const log = (line: string) => console.info(`[desk] ${line}`);

/**
 * The page's origins (Vite's `server.host` and `port`, as vite.config.ts sets them): the storefront page
 * calls the Store API from there, so a sandbox started here allows them (`storeApi.allowedOrigins`).
 */
const WEB_ORIGIN = `http://${process.env.HOST ?? '127.0.0.1'}:${Number(process.env.WEB_PORT ?? 5173)}`;
const WEB_ORIGINS = [WEB_ORIGIN, WEB_ORIGIN.replace('//127.0.0.1:', '//localhost:')];

async function status(url: string): Promise<number | null> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await res.body?.cancel();
    return res.status;
  } catch {
    return null;
  }
}

/** Polls the store's namespace index (no auth needed) until the sandbox answers, or gives up. */
async function waitForSandbox(): Promise<boolean> {
  const deadline = Date.now() + SANDBOX_WAIT_MS;
  let said = false;
  while (Date.now() < deadline) {
    if ((await status(`${SANDBOX_URL}/wp-json/wc/v3`)) === 200) return true;
    if (!said) log(`waiting for the sandbox at ${SANDBOX_URL} (the @x/sandbox dev task)...`);
    said = true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

/**
 * The sandbox defaults for what `.env` leaves out. The store comes from the running sandbox; an emulator
 * that sandbox was started without (an unknown route there is the store's 404) is started here instead.
 */
async function sandboxDefaults(need: { store: boolean; transcription: boolean; realtime: boolean }) {
  const reachable = await waitForSandbox();
  if (!reachable) log(`no sandbox at ${SANDBOX_URL}: starting one in this process`);
  const has = {
    store: reachable,
    // Unsigned requests: an emulator answers 401, the store's catch-all answers 404.
    transcription: reachable && (await status(`${SANDBOX_URL}/v2/transcript`)) === 401,
    realtime: reachable && (await status(`${SANDBOX_URL}/apps/${REALTIME_DEV_APP.appId}/channels`)) === 401,
  };
  const missing = {
    store: need.store && !has.store,
    transcription: need.transcription && !has.transcription,
    realtime: need.realtime && !has.realtime,
  };
  let own: Sandbox<boolean> | null = null;
  if (missing.store || missing.transcription || missing.realtime) {
    if (reachable) {
      const names = Object.entries(missing).flatMap(([name, m]) => (m ? [name] : []));
      log(`the sandbox at ${SANDBOX_URL} has no ${names.join(' or ')} emulator: starting it in this process`);
    }
    own = await startSandbox({
      store: missing.store
        ? { seed: 'demo', storeApi: { allowedOrigins: [...new Set(WEB_ORIGINS)] } }
        : false,
      transcription: missing.transcription,
      realtime: missing.realtime,
    });
  }
  const at = (m: boolean) => (m ? own!.url : SANDBOX_URL);
  const defaults: SandboxDefaults = {
    store: {
      url: at(missing.store),
      consumerKey: STORE_DEV_KEYS.read_write.consumerKey,
      consumerSecret: STORE_DEV_KEYS.read_write.consumerSecret,
    },
    transcription: { url: at(missing.transcription), apiKey: TRANSCRIPTION_DEV_KEY },
    realtime: { ...REALTIME_DEV_APP, url: at(missing.realtime) },
  };
  return { defaults, own };
}

/**
 * Whether the store's Store API lets the page call it from `origin` before it holds a cart token (WooCommerce's
 * `allowed_http_origins`): a sandbox started here does; the one `pnpm dev` starts beside the desk and a real
 * store do not, and the page then reaches the Store API through Vite, on its own origin.
 */
async function storeApiAllows(storeUrl: string, origin: string): Promise<boolean> {
  try {
    const res = await fetch(`${storeUrl}/wp-json/wc/store/v1/products?per_page=1`, {
      headers: { Origin: origin },
      signal: AbortSignal.timeout(5000),
    });
    await res.body?.cancel();
    return res.headers.get('access-control-allow-origin') === origin;
  } catch {
    return false;
  }
}

/** The storefront's address with the store as its `?store=` parameter, readable (`:` and `/` left as they are). */
function storefrontUrl(page: string, store: string): string {
  return `${page}storefront/?store=${encodeURIComponent(store).replace(/%3A/gi, ':').replace(/%2F/gi, '/')}`;
}

async function main(): Promise<void> {
  const env = envSchema.parse(process.env);
  const real = configuredServices(env);
  const need = { store: !real.store, transcription: !real.transcription, realtime: !real.realtime };
  const sandbox = need.store || need.transcription || need.realtime ? await sandboxDefaults(need) : null;

  const config = configFromEnv(process.env, sandbox?.defaults ?? null);
  const server = await startServer(config);
  log(`app server on ${server.url}`);
  const direct = await storeApiAllows(config.store.url, WEB_ORIGIN);
  const vite = await createVite({
    configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
    server: {
      proxy: {
        '/api/': server.url,
        ...(direct ? {} : { '/wp-json/wc/store/': { target: config.store.url, changeOrigin: true } }),
      },
    },
  });
  await vite.listen();
  const url = vite.resolvedUrls?.local[0] ?? `http://127.0.0.1:${vite.config.server.port}/`;
  const shop = storefrontUrl(url, direct ? config.store.url : url.replace(/\/$/, ''));

  const labels = config.labels!;
  const lines = [
    `Support desk: open ${url}`,
    '',
    `  store          ${labels.store}  ${config.store.url}`,
    `  transcription  ${labels.transcription}  ${config.transcription.baseUrl ?? 'https://api.assemblyai.com'}`,
    `  live calls     ${websocketBase(config.transcription.streamingBaseUrl)} (the page streams there with temporary tokens)`,
    `  realtime       ${labels.realtime}`,
    `  app server     ${server.url} (API and webhooks; Vite proxies /api)`,
    `  store webhooks ${server.storeWebhooks ? 'registered' : 'not registered (see the warning above)'}`,
    `  storefront     ${shop}${direct ? '' : ' (Store API through Vite: the store does not allow this origin)'}`,
    `  sample calls   ${server.speechTool ?? 'unavailable: apt-get install flite (or espeak-ng)'}`,
    `  calls kept in  ${server.storage}`,
  ];
  const rule = '='.repeat(Math.max(...lines.map((l) => l.length)));
  console.info(`\n${rule}\n${lines.join('\n')}\n${rule}\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    await Promise.allSettled([vite.close(), server.close(), sandbox?.own?.close()]);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(`[desk] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
