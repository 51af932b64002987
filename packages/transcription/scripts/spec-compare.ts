/**
 * Compares the field names (and enum values) of an OpenAPI document's components with the zod schemas
 * that model them, by walking both: the spec through `$ref`, `allOf`, `oneOf` and `anyOf`, the schemas
 * through zod mini's `_zod.def`. Names only: types and optionality differ on purpose (responses here are
 * lenient, see src/schemas/transcripts.ts), so comparing them would only list deliberate choices.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Where a spec schema sits (a JSON pointer) and the schema itself. */
interface SpecNode {
  at: string;
  schema: JsonObject;
}

export interface Difference {
  /** The component (or `Component.property`) the difference was found under. */
  component: string;
  /** Dotted path from the component, `[]` for array items; for an enum value, the path of the enum. */
  path: string;
  kind: 'missing' | 'extra';
  /** Set when the difference is an enum value rather than a field. */
  value?: string;
}

/**
 * One component to compare (`at` narrows it to one of its properties), or with `query` (`GET /v2/transcript`)
 * an operation's query parameters, taken as the fields of one object.
 */
export interface Mapping {
  component: string;
  at?: string;
  query?: string;
  schema: unknown;
}

/** A deliberate difference, kept out of the failure with its reason. */
export interface AllowedDifference {
  component: string;
  path: string;
  kind: 'missing' | 'extra';
  value?: string;
  reason: string;
}

export interface SpecReport {
  /** Not allowed: what makes the check fail (missing) or what to look at (extra). */
  differences: Difference[];
  /** Found and allowed, with the reason. */
  allowed: (Difference & { reason: string })[];
  /** Allowlist entries that matched nothing: the spec or the schemas moved on. */
  stale: AllowedDifference[];
  /** Components of the spec that neither a mapping nor the skip list mentions. */
  unmapped: string[];
  /** Mapped components the spec does not have. */
  absent: string[];
  /** How many fields were compared, per mapping. */
  compared: Record<string, number>;
}

/** The spec was not an OpenAPI document with `components.schemas`. */
export class SpecFormatError extends Error {
  override name = 'SpecFormatError';
}

const MAX_DEPTH = 8;
const COMPONENT = '#/components/schemas/';
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a spec schema offers once its references and combinators are merged. */
interface SpecShape {
  props: Map<string, SpecNode>;
  enums: Set<string>;
  /** Where the enum values were found, so an enum reached through several references is reported once. */
  enumAt: string | null;
  items: SpecNode[];
  /** `additionalProperties` as a schema: the values of a map. */
  values: SpecNode[];
}

function resolvePointer(root: JsonObject, ref: string): Json | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: Json | undefined = root;
  for (const raw of ref.slice(2).split('/')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObject(node) ? node[part] : undefined;
  }
  return node;
}

function specShape(root: JsonObject, node: SpecNode, covered?: Set<string>): SpecShape {
  const seen = new Set<string>();
  const shape: SpecShape = { props: new Map(), enums: new Set(), enumAt: null, items: [], values: [] };
  const merge = (current: SpecNode) => {
    if (seen.has(current.at)) return;
    seen.add(current.at);
    const { schema, at } = current;
    const ref = schema.$ref;
    if (typeof ref === 'string') {
      const target = resolvePointer(root, ref);
      if (isObject(target)) merge({ at: ref, schema: target });
      if (ref.startsWith(COMPONENT)) covered?.add(ref.slice(COMPONENT.length));
    }
    for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
      const list = schema[key];
      if (Array.isArray(list))
        list.forEach((item, i) => {
          if (isObject(item)) merge({ at: `${at}/${key}/${i}`, schema: item });
        });
    }
    if (isObject(schema.properties))
      for (const [name, value] of Object.entries(schema.properties))
        if (isObject(value) && !shape.props.has(name))
          shape.props.set(name, { at: `${at}/properties/${name}`, schema: value });
    if (Array.isArray(schema.enum)) {
      shape.enumAt ??= at;
      for (const value of schema.enum) if (typeof value === 'string') shape.enums.add(value);
    }
    if (isObject(schema.items)) shape.items.push({ at: `${at}/items`, schema: schema.items });
    if (isObject(schema.additionalProperties))
      shape.values.push({ at: `${at}/additionalProperties`, schema: schema.additionalProperties });
  };
  merge(node);
  return shape;
}

/** What a zod schema offers, seen through optional, nullable, unions (openEnum) and checks. */
interface ZodShape {
  props: Map<string, unknown> | null;
  enums: Set<string> | null;
  items: unknown[];
  values: unknown[];
}

interface ZodDef {
  type: string;
  innerType?: unknown;
  in?: unknown;
  shape?: Record<string, unknown>;
  options?: unknown[];
  element?: unknown;
  valueType?: unknown;
  entries?: Record<string, unknown>;
  values?: unknown[];
}

const defOf = (schema: unknown): ZodDef | null => {
  const def = (schema as { _zod?: { def?: ZodDef } } | null)?._zod?.def;
  return def && typeof def.type === 'string' ? def : null;
};

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

function zodShape(schema: unknown, depth = 0): ZodShape {
  const shape: ZodShape = { props: null, enums: null, items: [], values: [] };
  const visit = (current: unknown, level: number) => {
    const def = defOf(current);
    if (!def || level > MAX_DEPTH) return;
    if (WRAPPERS.has(def.type)) return visit(def.innerType, level + 1);
    if (def.type === 'pipe') return visit(def.in, level + 1);
    if (def.type === 'union') {
      for (const option of def.options ?? []) visit(option, level + 1);
      return;
    }
    if (def.type === 'object' && def.shape) {
      shape.props ??= new Map();
      for (const [name, value] of Object.entries(def.shape))
        if (!shape.props.has(name)) shape.props.set(name, value);
    }
    if (def.type === 'enum' || def.type === 'literal') {
      shape.enums ??= new Set();
      const values = def.type === 'enum' ? Object.values(def.entries ?? {}) : (def.values ?? []);
      for (const value of values) if (typeof value === 'string') shape.enums.add(value);
    }
    if (def.type === 'array' && def.element) shape.items.push(def.element);
    if (def.type === 'record' && def.valueType) shape.values.push(def.valueType);
  };
  visit(schema, depth);
  return shape;
}

/** An operation's query parameters (`$ref`s to components.parameters followed) as one object schema. */
function queryNode(root: JsonObject, operation: string): SpecNode | undefined {
  const [method = '', path = ''] = operation.split(' ');
  const paths = isObject(root.paths) ? root.paths : {};
  const item = Object.hasOwn(paths, path) ? paths[path] : undefined;
  const op = isObject(item) ? item[method.toLowerCase()] : undefined;
  if (!isObject(op)) return undefined;
  const properties: JsonObject = {};
  for (const entry of Array.isArray(op.parameters) ? op.parameters : []) {
    const param =
      isObject(entry) && typeof entry.$ref === 'string' ? resolvePointer(root, entry.$ref) : entry;
    if (isObject(param) && param.in === 'query' && typeof param.name === 'string')
      properties[param.name] = isObject(param.schema) ? param.schema : {};
  }
  const pointer = `#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method.toLowerCase()}/parameters`;
  return { at: pointer, schema: { properties } };
}

/** Compares the spec's components with the schemas of `mappings`; `skipped` names components not modelled. */
export function compareSpec(
  spec: unknown,
  mappings: readonly Mapping[],
  allowlist: readonly AllowedDifference[] = [],
  skipped: readonly string[] = [],
): SpecReport {
  if (!isObject(spec) || !isObject(spec.components) || !isObject(spec.components.schemas))
    throw new SpecFormatError('not an OpenAPI document: components.schemas is missing');
  const root = spec;
  const components = spec.components.schemas as JsonObject;
  const found: Difference[] = [];
  // A property reached twice (TranscriptParams includes TranscriptOptionalParams) is reported once.
  const reported = new Set<string>();
  const compared: Record<string, number> = {};
  const mapped = new Set(mappings.map((m) => m.component));
  // Components reached through a reference from a mapped one are compared too.
  const covered = new Set<string>();

  const record = (difference: Difference, at: string) => {
    const key = `${at}|${difference.kind}|${difference.value ?? ''}`;
    if (reported.has(key)) return;
    reported.add(key);
    found.push(difference);
  };

  const walk = (name: string, node: SpecNode, schema: unknown, path: string, depth: number): number => {
    if (depth > MAX_DEPTH) return 0;
    const spec = specShape(root, node, covered);
    const ours = zodShape(schema);
    const join = (field: string) => (path === '' ? field : `${path}.${field}`);
    let count = 0;
    if (spec.enums.size > 0 && ours.enums) {
      for (const value of spec.enums)
        if (!ours.enums.has(value))
          record({ component: name, path, kind: 'missing', value }, spec.enumAt ?? node.at);
      for (const value of ours.enums)
        if (!spec.enums.has(value))
          record({ component: name, path, kind: 'extra', value }, spec.enumAt ?? node.at);
    }
    if (spec.props.size > 0 && !ours.props) {
      // The spec lists fields where ours has no object: a map types each of them as its values, anything
      // else (a string, unknown) types none of them.
      for (const [field, child] of spec.props) {
        count++;
        if (ours.values[0] === undefined)
          record({ component: name, path: join(field), kind: 'missing' }, child.at);
        else count += walk(name, child, ours.values[0], join(field), depth + 1);
      }
    }
    if (spec.props.size > 0 && ours.props) {
      for (const [field, child] of spec.props) {
        count++;
        const mine = ours.props.get(field);
        if (mine === undefined) {
          record({ component: name, path: join(field), kind: 'missing' }, child.at);
          continue;
        }
        // A property that is only a reference to another mapped component is compared there.
        const ref = child.schema.$ref;
        if (typeof ref === 'string' && mapped.has(ref.split('/').pop() ?? '')) continue;
        count += walk(name, child, mine, join(field), depth + 1);
      }
      for (const field of ours.props.keys())
        if (!spec.props.has(field))
          record({ component: name, path: join(field), kind: 'extra' }, `${node.at}/+${field}`);
    }
    const inner = (specNode: SpecNode | undefined, mine: unknown, suffix: string) => {
      if (!specNode || mine === undefined) return;
      const ref = specNode.schema.$ref;
      if (typeof ref === 'string' && mapped.has(ref.split('/').pop() ?? '')) return;
      count += walk(name, specNode, mine, `${path}${suffix}`, depth + 1);
    };
    inner(spec.items[0], ours.items[0], '[]');
    inner(spec.values[0], ours.values[0], '{}');
    return count;
  };

  const absent: string[] = [];
  for (const mapping of mappings) {
    if (mapping.query !== undefined) {
      const node = queryNode(root, mapping.query);
      if (node) compared[mapping.component] = walk(mapping.component, node, mapping.schema, '', 0);
      else absent.push(mapping.component);
      continue;
    }
    const component = components[mapping.component];
    const label = mapping.at ? `${mapping.component}.${mapping.at}` : mapping.component;
    let node: SpecNode | undefined = isObject(component)
      ? { at: `${COMPONENT}${mapping.component}`, schema: component }
      : undefined;
    if (node && mapping.at) node = specShape(root, node, covered).props.get(mapping.at);
    if (!node) {
      absent.push(label);
      continue;
    }
    compared[label] = walk(label, node, mapping.schema, '', 0);
  }

  const same = (a: Difference, b: AllowedDifference) =>
    a.component === b.component && a.path === b.path && a.kind === b.kind && a.value === b.value;
  const allowed = found.flatMap((d) => {
    const entry = allowlist.find((a) => same(d, a));
    return entry ? [{ ...d, reason: entry.reason }] : [];
  });
  return {
    differences: found.filter((d) => !allowlist.some((a) => same(d, a))),
    allowed,
    stale: allowlist.filter((a) => !found.some((d) => same(d, a))),
    unmapped: Object.keys(components).filter(
      (c) => !mapped.has(c) && !covered.has(c) && !skipped.includes(c),
    ),
    absent,
    compared,
  };
}

const describe = (d: Difference) =>
  d.value === undefined ? d.path : `${d.path || '(value)'} = "${d.value}"`;

/** The report as printed: per component, missing then extra; ends with a one-line verdict. */
export function formatReport(report: SpecReport): string {
  const lines: string[] = [];
  const components = [
    ...new Set([...Object.keys(report.compared), ...report.differences.map((d) => d.component)]),
  ];
  for (const component of components) {
    const mine = report.differences.filter((d) => d.component === component);
    const missing = mine.filter((d) => d.kind === 'missing').map(describe);
    const extra = mine.filter((d) => d.kind === 'extra').map(describe);
    const fields = report.compared[component] ?? 0;
    if (missing.length === 0 && extra.length === 0) {
      lines.push(`ok       ${component} (${fields} fields)`);
      continue;
    }
    lines.push(`${missing.length > 0 ? 'MISSING' : 'extra  '}  ${component} (${fields} fields)`);
    if (missing.length > 0) lines.push(`           missing: ${missing.join(', ')}`);
    if (extra.length > 0) lines.push(`           extra:   ${extra.join(', ')}`);
  }
  for (const label of report.absent) lines.push(`absent   ${label}: mapped here, not in the spec`);
  if (report.unmapped.length > 0)
    lines.push(`unmapped ${report.unmapped.join(', ')}: new in the spec? map or skip them`);
  for (const a of report.allowed) lines.push(`allowed  ${a.component} ${a.kind} ${describe(a)}: ${a.reason}`);
  for (const s of report.stale)
    lines.push(`stale    allowlist entry ${s.component} ${s.kind} ${describe(s)} matched nothing`);
  const missing = report.differences.filter((d) => d.kind === 'missing').length;
  const extra = report.differences.length - missing;
  lines.push(
    missing === 0
      ? `spec check passed: nothing missing (${extra} extra, ${report.allowed.length} allowed)`
      : `spec check FAILED: ${missing} missing (${extra} extra, ${report.allowed.length} allowed)`,
  );
  return lines.join('\n');
}

/** True when the check fails: something the spec has is missing here (extras only inform). */
export const specCheckFails = (report: SpecReport): boolean =>
  report.differences.some((d) => d.kind === 'missing');
