#!/usr/bin/env node
// Every public package README has the sections a user looks for, found by heading (any level): install, a
// quick start, an options table, errors, rate limits, pagination, webhooks, testing with the sandbox,
// requirements, and a link to the TypeDoc API reference. Where a section does not apply to a package, the
// exception is written below with its reason, and the check fails if that package grows the section after
// all (then the exception should go). Exit status 1 on anything missing.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

const sections = {
  install: /^install\b/i,
  'quick start': /^quick start\b/i,
  'options table': /\b(options|configuration)\b/i,
  errors: /\berrors?\b/i,
  'rate limits': /\brate limits?\b/i,
  pagination: /\bpagination\b/i,
  webhooks: /\bwebhooks?\b/i,
  'testing with the sandbox': /^testing with the sandbox\b/i,
  requirements: /^requirements\b/i,
  'API reference': /^api reference\b/i,
};

// Per package: a section whose heading is spelt otherwise (a RegExp), or that does not apply (a string:
// the reason, printed).
const exceptions = {
  '@x/core': {
    // Core serves no service, so there is nothing for the sandbox to emulate; its tests use a fault server.
    'testing with the sandbox': /^testing\b/i,
  },
  '@x/sandbox': {
    // The sandbox is the thing tests run against; its in-process API is how.
    'testing with the sandbox': /^in-process api \(tests\)/i,
    errors:
      'not a client: it throws nothing a caller handles beyond a rejected start; the errors each emulator answers are described under "What is emulated" and in the section of each emulator',
    pagination:
      'not a client: it has no pagination API; how it pages lists is under "What is emulated" (store) and "Routes" (transcription)',
  },
};

const packages = readdirSync(join(root, 'packages'))
  .map((dir) => join(root, 'packages', dir))
  .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
  .filter(({ pkg }) => !pkg.private);

let ok = true;
for (const { dir, pkg } of packages) {
  const text = readFileSync(join(dir, 'README.md'), 'utf8').replace(/```[\s\S]*?```/g, ''); // no code blocks
  const lines = text.split('\n');
  const headings = lines.flatMap((line, i) => {
    const m = /^(#{2,6})\s+(.*)$/.exec(line);
    return m ? [{ level: m[1].length, title: m[2].replace(/[`*]/g, '').trim(), line: i }] : [];
  });
  // A section's body: its lines up to the next heading of the same or a higher level.
  const body = (h) => {
    const next = headings.find((o) => o.line > h.line && o.level <= h.level);
    return lines.slice(h.line + 1, next ? next.line : lines.length).join('\n');
  };
  const problems = [];
  const notes = [];
  for (const [name, defaultPattern] of Object.entries(sections)) {
    const exception = exceptions[pkg.name]?.[name];
    const pattern = exception instanceof RegExp ? exception : defaultPattern;
    let found = headings.filter((h) => pattern.test(h.title));
    if (name === 'options table') found = found.filter((h) => /^\|\s*-{3}/m.test(body(h)));
    if (typeof exception === 'string') {
      if (found.length)
        problems.push(`"${name}" is marked as not applying, but "${found[0].title}" is there`);
      else notes.push(`${name}: n/a (${exception})`);
      continue;
    }
    if (!found.length) {
      problems.push(
        `no "${name}" section${name === 'options table' ? ' (an options heading with a table)' : ''}`,
      );
      continue;
    }
    if (name === 'API reference') {
      const b = body(found[0]);
      if (!b.includes('docs/api') || !b.includes('pnpm docs'))
        problems.push('the API reference section should link to docs/api and say `pnpm docs`');
    }
  }
  if (problems.length) ok = false;
  console.log(
    `${pkg.name}: ${problems.length ? `MISSING: ${problems.join('; ')}` : `${Object.keys(sections).length - notes.length} sections present`}` +
      notes.map((n) => `\n  ${n}`).join(''),
  );
}
const rootReadme = readFileSync(join(root, 'README.md'), 'utf8');
if (!rootReadme.includes('docs/api') || !rootReadme.includes('pnpm docs')) {
  console.log('README.md: MISSING: a link to the API reference (docs/api) and `pnpm docs`');
  ok = false;
}
process.exit(ok ? 0 : 1);
