#!/usr/bin/env node
// No key or secret in any build output: scans every file under packages/*/dist and apps/*/dist (the
// published packages, their source maps, and the support desk's browser bundle) for
//   - the sandbox's default credentials (read from its build, so a changed default is still found),
//   - every credential-like string literal in the test fixtures (secret, apiKey, consumerSecret, ...),
//   - WooCommerce key shapes (ck_/cs_ + 40 hex), AssemblyAI-like keys (32 hex), Pusher-like app secrets
//     (20 hex, as in Pusher's docs' 7ad3773142a6692b25b8), and PEM private keys.
// The sandbox's own dist is allowed to hold its documented, fixed dev credentials: they are what it serves.
// Before scanning, each rule must catch a planted sample, so a rule that matches nothing fails loudly.
// Run after `pnpm build`. Exit status 1 on any finding.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url).pathname;
const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : [],
  );
const dirsOf = (parent) => readdirSync(join(root, parent)).map((d) => join(root, parent, d));

// The sandbox's defaults, from its build (the same objects its CLI prints).
const sandbox = await import(pathToFileURL(join(root, 'packages/sandbox/dist/index.js')).href).catch(
  (error) => {
    console.error(
      `secrets-check: cannot load packages/sandbox/dist/index.js (run \`pnpm build\` first): ${error}`,
    );
    process.exit(1);
  },
);
const sandboxDefaults = [
  ...Object.values(sandbox.STORE_DEV_KEYS).flatMap((k) => [k.consumerKey, k.consumerSecret]),
  sandbox.TRANSCRIPTION_DEV_KEY,
  sandbox.REALTIME_DEV_APP.key,
  sandbox.REALTIME_DEV_APP.secret,
];
if (sandboxDefaults.some((v) => typeof v !== 'string' || v.length < 8))
  throw new Error(`unexpected sandbox defaults: ${sandboxDefaults}`);

// Credential literals in the tests: `secret: '...'`, `apiKey = "..."`, `SECRET=...` and the like. Values
// shorter than 10 characters ('s', 'secret', 'key-a') are words that legitimately occur in code; values
// with other characters than a key's are placeholders (`[REDACTED]`) or templates (`${sandbox...}x`).
const credential =
  /\b(?:[A-Za-z_]*(?:secret|Secret|SECRET)|apiKey|api_key|API_KEY|masterKey|encryptionMasterKeyBase64|consumerKey|token)['"]?\s*[:=]\s*['"`]([^'"`\s]{10,})['"`]/g;
const fixtureFiles = [...dirsOf('packages'), ...dirsOf('apps')]
  .map((d) => join(d, 'test'))
  .filter((d) => statSync(d, { throwIfNoEntry: false })?.isDirectory())
  .flatMap(walk)
  .filter((f) => /\.(ts|tsx|mjs|js|json)$/.test(f));
const fixtures = new Set();
for (const file of fixtureFiles)
  for (const m of readFileSync(file, 'utf8').matchAll(credential))
    if (/^[A-Za-z0-9_+/=.-]+$/.test(m[1])) fixtures.add(m[1]);
for (const v of sandboxDefaults) fixtures.delete(v); // checked by their own rule, with the sandbox exemption
if (process.env.SECRETS_CHECK_DEBUG) console.log([...fixtures]);

const rules = [
  { name: 'sandbox default credential', values: sandboxDefaults, sample: sandboxDefaults[1] },
  { name: 'test fixture credential', values: [...fixtures], sample: [...fixtures][0] },
  // The hex rules pass over number literals (digits, or digits e digits: zod's float32 bound
  // -34028234663852886e22 is 20 "hex" characters); a random key is all digits once in 10^4 (20 hex).
  { name: 'WooCommerce key', re: /\b(?:ck|cs)_[0-9a-f]{40}\b/, sample: `cs_${'ab12'.repeat(10)}` },
  {
    name: 'AssemblyAI-like key (32 hex)',
    re: /(?<![0-9a-zA-Z_$])(?!\d+(?:e\d+)?(?![0-9a-zA-Z_]))[0-9a-f]{32}(?![0-9a-zA-Z_])/,
    sample: 'c0ffee'.repeat(5) + 'ab',
  },
  {
    name: 'Pusher-like app secret (20 hex)',
    re: /(?<![0-9a-zA-Z_$])(?!\d+(?:e\d+)?(?![0-9a-zA-Z_]))[0-9a-f]{20}(?![0-9a-zA-Z_])/,
    sample: '"7ad3773142a6692b25b8"',
  },
  {
    name: 'PEM private key',
    re: /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
    sample: '-----BEGIN RSA PRIVATE KEY-----',
  },
];
const find = (rule, text) => {
  if (rule.re) {
    const m = rule.re.exec(text);
    return m ? m[0] : undefined;
  }
  return rule.values.find((v) => text.includes(v));
};

let ok = true;
for (const rule of rules) {
  if (!rule.sample || find(rule, `const x = ${rule.sample};`) === undefined) {
    console.error(`secrets-check: the rule "${rule.name}" does not catch its own sample: fix the rule`);
    ok = false;
  }
}

const distFiles = [...dirsOf('packages'), ...dirsOf('apps')]
  .map((d) => join(d, 'dist'))
  .filter((d) => statSync(d, { throwIfNoEntry: false })?.isDirectory())
  .flatMap(walk);
if (distFiles.length === 0) {
  console.error('secrets-check: no dist/ files found; run `pnpm build` first');
  process.exit(1);
}
const sandboxDist = join(root, 'packages/sandbox/dist');
let bytes = 0;
for (const file of distFiles) {
  const text = readFileSync(file, 'latin1');
  bytes += text.length;
  for (const rule of rules) {
    if (rule.name === 'sandbox default credential' && file.startsWith(sandboxDist)) continue;
    const hit = find(rule, text);
    if (hit === undefined) continue;
    const at = text.indexOf(hit);
    const context = text.slice(Math.max(0, at - 60), at + hit.length + 20).replace(/\s+/g, ' ');
    console.error(`secrets-check: ${relative(root, file)}: ${rule.name}: ...${context}...`);
    ok = false;
  }
}
console.log(
  `secrets-check: ${distFiles.length} files (${(bytes / 1e6).toFixed(1)} MB) in ${new Set(distFiles.map((f) => relative(root, f).split('/').slice(0, 2).join('/'))).size} dist/ directories, ` +
    `${rules.length} rules (${sandboxDefaults.length} sandbox defaults, ${fixtures.size} fixture credentials from ${fixtureFiles.length} test files): ` +
    (ok ? 'nothing found' : 'FOUND, see above'),
);
process.exit(ok ? 0 : 1);
