/**
 * The spec check against small documents written here (not AssemblyAI's): the comparison itself on
 * hand-made schemas, and `pnpm check:spec` as a real child process with the package's own mappings.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openEnum } from '@x/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { compareSpec, formatReport, SpecFormatError, specCheckFails } from '../../scripts/spec-compare.js';

const PACKAGE = fileURLToPath(new URL('../..', import.meta.url));
const TSX = join(PACKAGE, 'node_modules', '.bin', 'tsx');

const components = (schemas: Record<string, unknown>) => ({ openapi: '3.1.0', components: { schemas } });

describe('compareSpec', () => {
  const ours = z.looseObject({
    id: z.string(),
    status: openEnum(['queued', 'completed']),
    words: z.optional(z.nullable(z.array(z.looseObject({ text: z.string(), start: z.number() })))),
    options: z.optional(z.strictObject({ a: z.boolean(), ours_only: z.boolean() })),
    scores: z.record(z.string(), z.looseObject({ low: z.number() })),
  });
  const spec = components({
    Status: { type: 'string', enum: ['queued', 'completed', 'error'] },
    Word: { type: 'object', properties: { text: { type: 'string' }, start: { type: 'integer' }, end: {} } },
    Options: {
      allOf: [{ properties: { a: { type: 'boolean' } } }, { properties: { b: { type: 'boolean' } } }],
    },
    Thing: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        status: { oneOf: [{ $ref: '#/components/schemas/Status' }, { type: 'null' }] },
        words: { type: ['array', 'null'], items: { $ref: '#/components/schemas/Word' } },
        options: { $ref: '#/components/schemas/Options' },
        scores: { additionalProperties: { properties: { low: {}, high: {} } } },
      },
    },
    Loop: { properties: { self: { $ref: '#/components/schemas/Loop' } } },
  });

  it('finds missing and extra fields through $ref, allOf, oneOf, items, maps, and enum values', () => {
    const report = compareSpec(spec, [{ component: 'Thing', schema: ours }], [], ['Loop']);
    const found = report.differences.map((d) => `${d.kind} ${d.path}${d.value ? `=${d.value}` : ''}`);
    expect(found.sort()).toEqual(
      [
        'missing status=error',
        'missing words[].end',
        'missing options.b',
        'extra options.ours_only',
        'missing scores{}.high',
      ].sort(),
    );
    expect(specCheckFails(report)).toBe(true);
    // Status, Word and Options are reached through references, so they are not "unmapped".
    expect(report.unmapped).toEqual([]);
  });

  it('an allowlisted difference is reported with its reason; an entry that matches nothing is stale', () => {
    const report = compareSpec(
      spec,
      [{ component: 'Thing', schema: ours }],
      [
        { component: 'Thing', path: 'options.ours_only', kind: 'extra', reason: 'ours on purpose' },
        { component: 'Thing', path: 'gone', kind: 'missing', reason: 'was once' },
      ],
      ['Loop'],
    );
    expect(report.allowed).toEqual([
      { component: 'Thing', path: 'options.ours_only', kind: 'extra', reason: 'ours on purpose' },
    ]);
    expect(report.stale.map((s) => s.path)).toEqual(['gone']);
    expect(formatReport(report)).toContain('allowed  Thing extra options.ours_only: ours on purpose');
  });

  it('a property reached from two mapped components is reported once, under the first', () => {
    const report = compareSpec(spec, [
      { component: 'Options', schema: z.object({ a: z.boolean() }) },
      { component: 'Thing', schema: z.object({ options: z.object({ a: z.boolean() }) }) },
    ]);
    const b = report.differences.filter((d) => d.path.endsWith('b'));
    expect(b).toEqual([{ component: 'Options', path: 'b', kind: 'missing' }]);
  });

  it('a self-referencing component ends; a mapping the spec lacks is absent; the rest unmapped', () => {
    const report = compareSpec(spec, [
      { component: 'Loop', schema: z.object({ self: z.object({ self: z.object({}) }) }) },
      { component: 'Nowhere', schema: z.object({}) },
    ]);
    expect(report.absent).toEqual(['Nowhere']);
    expect(report.unmapped).toEqual(['Status', 'Word', 'Options', 'Thing']);
  });

  it('fields the spec lists where ours has no object are missing; a map types them as its values', () => {
    const echo = components({
      Echo: {
        properties: {
          request: { oneOf: [{ properties: { translation: { properties: { target_languages: {} } } } }] },
          labels: { properties: { a: { type: 'string' } } },
        },
      },
    });
    const untyped = z.object({
      request: z.record(z.string(), z.unknown()),
      labels: z.record(z.string(), z.string()),
    });
    const report = compareSpec(echo, [{ component: 'Echo', schema: untyped }]);
    expect(report.differences).toEqual([
      { component: 'Echo', path: 'request.translation.target_languages', kind: 'missing' },
    ]);
    const typed = z.object({
      request: z.object({ translation: z.optional(z.object({ target_languages: z.array(z.string()) })) }),
      labels: z.record(z.string(), z.string()),
    });
    expect(compareSpec(echo, [{ component: 'Echo', schema: typed }]).differences).toEqual([]);
  });

  it("an operation's query parameters, $ref'd ones included, compare as one object's fields", () => {
    const document = {
      ...components({ Status: { enum: ['queued', 'archived'] } }),
      paths: {
        '/v2/transcript': {
          get: {
            parameters: [
              { name: 'transcript_id', in: 'path', schema: { type: 'string' } },
              { name: 'limit', in: 'query', schema: { type: 'integer' } },
              { name: 'status', in: 'query', schema: { $ref: '#/components/schemas/Status' } },
              { $ref: '#/components/parameters/Order' },
            ],
          },
        },
      },
    };
    document.components = {
      ...document.components,
      parameters: { Order: { name: 'order', in: 'query' } },
    } as never;
    const query = z.strictObject({
      limit: z.optional(z.number()),
      status: z.optional(openEnum(['queued'])),
      ours: z.string(),
    });
    const report = compareSpec(
      document,
      [{ component: 'list', query: 'GET /v2/transcript', schema: query }],
      [],
      ['Status'],
    );
    expect(report.differences).toEqual([
      { component: 'list', path: 'status', kind: 'missing', value: 'archived' },
      { component: 'list', path: 'order', kind: 'missing' },
      { component: 'list', path: 'ours', kind: 'extra' },
    ]);
    expect(
      compareSpec(document, [{ component: 'gone', query: 'POST /v2/nothing', schema: query }]).absent,
    ).toEqual(['gone']);
  });

  it('refuses a document without components.schemas with a typed error', () => {
    for (const bad of [null, 42, [], {}, { components: {} }, { components: { schemas: [] } }])
      expect(() => compareSpec(bad, [])).toThrow(SpecFormatError);
  });
});

describe('pnpm check:spec (a child process, the package mappings)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'check-spec-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const run = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      execFile(
        TSX,
        ['scripts/check-spec.ts', ...args],
        { cwd: PACKAGE, env: { ...process.env, INIT_CWD: dir } },
        (error, stdout, stderr) => done({ code: error ? Number(error.code) : 0, stdout, stderr }),
      );
    });

  it('one missing and one extra field: both printed, exit 1', async () => {
    // UploadedFile gains a field we do not have; TranscriptReadyNotification loses `status`, which we have.
    const fixture = components({
      UploadedFile: {
        type: 'object',
        properties: { upload_url: { type: 'string' }, expires_at: { type: 'string' } },
      },
      TranscriptReadyNotification: { type: 'object', properties: { transcript_id: { type: 'string' } } },
    });
    await writeFile(join(dir, 'spec.json'), JSON.stringify(fixture));
    const { code, stdout } = await run('spec.json');
    expect(code).toBe(1);
    expect(stdout).toMatch(/^MISSING {2}UploadedFile \(2 fields\)\n {11}missing: expires_at$/m);
    expect(stdout).toMatch(/^extra {4}TranscriptReadyNotification \(1 fields\)\n {11}extra: {3}status$/m);
    expect(stdout).toMatch(/^spec check FAILED: 1 missing \(1 extra, 0 allowed\)$/m);
    // The package maps the transcript and the rest; this fixture has none of them.
    expect(stdout).toMatch(/^absent {3}Transcript: mapped here, not in the spec$/m);
  });

  it('nothing missing: exit 0, extras alone do not fail', async () => {
    const fixture = components({
      TranscriptReadyNotification: { type: 'object', properties: { transcript_id: { type: 'string' } } },
    });
    await writeFile(join(dir, 'extra-only.json'), JSON.stringify(fixture));
    const { code, stdout } = await run('extra-only.json');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^spec check passed: nothing missing \(1 extra, 0 allowed\)$/m);
  });

  it('no path, an unreadable file or not an OpenAPI document: exit 2 with the reason', async () => {
    expect((await run()).code).toBe(2);
    const missing = await run('does-not-exist.json');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read');
    await writeFile(join(dir, 'not-openapi.json'), '{"swagger": "2.0"}');
    const wrong = await run('not-openapi.json');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('components.schemas is missing');
  });
});
