#!/usr/bin/env node
// The installed footprint of fresh npm projects, as a table:
//   node scripts/release/footprint.mjs "label=dir" ...
// packages: every package directory under dir/node_modules, nested node_modules included (what npm
// installed, the project itself excluded); size: `du -sb dir/node_modules` (apparent bytes, so the figure
// does not depend on the file system's block size) and `du -sk` (blocks allocated, what `du -sh` shows, so
// larger with many small files); largest: the biggest package (apparent bytes) and its share.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const du = (dir, flag = '-sb') =>
  Number(execFileSync('du', [flag, dir], { encoding: 'utf8' }).split('\t')[0]);
const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

/** Package directories under a node_modules directory, recursing into nested node_modules. */
function packages(nodeModules) {
  const found = [];
  if (!existsSync(nodeModules)) return found;
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith('.')) continue; // .bin, .package-lock.json
    const dirs = entry.startsWith('@')
      ? readdirSync(join(nodeModules, entry)).map((name) => join(nodeModules, entry, name))
      : [join(nodeModules, entry)];
    for (const dir of dirs) {
      if (!existsSync(join(dir, 'package.json'))) continue;
      const { name, version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      found.push({ name, version, dir }, ...packages(join(dir, 'node_modules')));
    }
  }
  return found;
}

const rows = process.argv.slice(2).map((arg) => {
  const [label, dir] = arg.split('=');
  const nodeModules = join(dir, 'node_modules');
  const all = packages(nodeModules);
  const sized = all.map((p) => ({ ...p, bytes: du(p.dir) })).sort((a, b) => b.bytes - a.bytes);
  const total = du(nodeModules);
  const top = sized[0];
  return {
    label,
    count: all.length,
    size: mb(total),
    blocks: mb(du(nodeModules, '-sk') * 1024),
    largest: top ? `${top.name} ${mb(top.bytes)} (${Math.round((100 * top.bytes) / total)}%)` : '',
    list: all.map((p) => `${p.name}@${p.version}`).join(' '),
  };
});

const header = {
  label: 'installed alone',
  count: 'packages',
  size: 'size (du -sb)',
  blocks: 'on disk (du -sk)',
  largest: 'largest package',
};
const cols = ['label', 'count', 'size', 'blocks', 'largest'];
const width = Object.fromEntries(
  cols.map((c) => [c, Math.max(...[header, ...rows].map((r) => String(r[c]).length))]),
);
const line = (r) => `| ${cols.map((c) => String(r[c]).padEnd(width[c])).join(' | ')} |`;
console.log(line(header));
console.log(`|${cols.map((c) => '-'.repeat(width[c] + 2)).join('|')}|`);
for (const row of rows) console.log(line(row));
// The @x installs are small enough to name every package; the official SDKs' lists are long.
for (const row of rows) if (row.count <= 8) console.log(`${row.label}: ${row.list}`);
