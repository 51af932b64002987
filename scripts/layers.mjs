#!/usr/bin/env node
/**
 * The store emulator's layer diagram (`pnpm layers`): each folder of packages/sandbox/src/store (a file at its
 * top counts as its own node), the folders it imports, and its level (0 imports nothing else of the store; each
 * other folder sits one above the highest it imports). Edges that close a circle between folders have no
 * level to go by: they are flagged UPWARD, and they or any import in a circle between files fail the command. The rules that keep it so are in
 * .dependency-cruiser.cjs; this is the picture.
 *
 *   node scripts/layers.mjs [repo]     repo defaults to the current directory, e.g. an older worktree:
 *   git worktree add /tmp/before 88caf7b && node scripts/layers.mjs /tmp/before
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const STORE = 'packages/sandbox/src/store';
const repo = resolve(process.argv[2] ?? '.');
const here = dirname(dirname(fileURLToPath(import.meta.url)));
const depcruise = join(here, 'node_modules/.bin/depcruise');
const config = existsSync(join(repo, '.dependency-cruiser.cjs'))
  ? join(repo, '.dependency-cruiser.cjs')
  : join(here, '.dependency-cruiser.cjs');

let out;
try {
  out = execFileSync(depcruise, [STORE, '--config', config, '--output-type', 'json'], {
    cwd: repo,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
} catch (err) {
  // depcruise exits non-zero when a rule is broken; its JSON is still the whole graph.
  out = err.stdout;
  if (!out) throw err;
}

/** `catalog` for packages/sandbox/src/store/catalog/products.ts, `emulator.ts` for a top-level file. */
function node(path) {
  const rest = path.slice(STORE.length + 1);
  const slash = rest.indexOf('/');
  return slash === -1 ? rest : rest.slice(0, slash);
}

const edges = new Map();
let fileCircles = 0;
for (const m of JSON.parse(out).modules) {
  if (!m.source.startsWith(`${STORE}/`)) continue;
  const from = node(m.source);
  if (!edges.has(from)) edges.set(from, new Set());
  for (const d of m.dependencies) {
    if (!d.resolved?.startsWith(`${STORE}/`)) continue;
    if (d.circular) fileCircles++;
    const to = node(d.resolved);
    if (to !== from) edges.get(from).add(to);
  }
}

// Strongly connected components (Tarjan): folders in one component import each other, directly or not.
const index = new Map();
const low = new Map();
const component = new Map();
const stack = [];
let counter = 0;
function connect(v) {
  index.set(v, counter);
  low.set(v, counter++);
  stack.push(v);
  for (const w of edges.get(v) ?? []) {
    if (!index.has(w)) {
      connect(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (!component.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) === index.get(v)) {
    const members = [];
    let w;
    do {
      w = stack.pop();
      members.push(w);
    } while (w !== v);
    for (const x of members) component.set(x, members);
  }
}
for (const v of edges.keys()) if (!index.has(v)) connect(v);

// A component's level: one above the highest component it imports (components form no circle).
const level = new Map();
function levelOf(v) {
  if (level.has(v)) return level.get(v);
  const members = component.get(v);
  for (const x of members) level.set(x, 0);
  let max = -1;
  for (const x of members) {
    for (const w of edges.get(x) ?? []) if (!members.includes(w)) max = Math.max(max, levelOf(w));
  }
  for (const x of members) level.set(x, max + 1);
  return max + 1;
}
for (const v of edges.keys()) levelOf(v);

const nodes = [...edges.keys()].sort((a, b) => level.get(b) - level.get(a) || a.localeCompare(b));
let upward = 0;
console.log(`Layers of ${STORE} in ${repo} (level: folder → what it imports)`);
for (const v of nodes) {
  const targets = [...edges.get(v)].sort((a, b) => level.get(b) - level.get(a) || a.localeCompare(b));
  const shown = targets.map((w) => {
    if (component.get(v).includes(w)) {
      upward++;
      return `${w} (UPWARD: in a circle with ${v})`;
    }
    return w;
  });
  console.log(`${String(level.get(v)).padStart(2)}  ${v} → ${shown.length ? shown.join(', ') : '(nothing)'}`);
}
console.log(upward === 0 ? 'No upward edge.' : `${upward} upward edge(s).`);
console.log(`${fileCircles} file import(s) in a circle.`);
process.exitCode = upward === 0 && fileCircles === 0 ? 0 : 1;
