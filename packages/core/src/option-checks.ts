import type { ValidationIssue } from './errors.js';

/**
 * Checks for client options, shared by every service client so that a wrong option fails at construction
 * with the option's name, expected and received type, instead of later as a raw `TypeError` from `fetch`
 * or `Headers` (which quotes the offending value, and so the key).
 */
export type OptionKind =
  | 'string'
  | 'number'
  | 'boolean'
  | 'function'
  | 'object'
  | { readonly enum: readonly string[] };

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this regex's job.
const CONTROL = /[\u0000-\u001f\u007f]/;
/** HTTP header values are ISO-8859-1 bytes: `Headers` refuses anything above U+00FF. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the range starts at U+0000 to cover all of Latin-1.
const NOT_LATIN1 = /[^\u0000-\u00ff]/;
/** RFC 9110 token characters, which is all a header name may hold. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `a string`, `null`, `an array`, `NaN`: what was received, never the value itself. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return `${value}`;
    return 'a number';
  }
  const type = typeof value;
  return type === 'object' ? 'an object' : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

/**
 * Quotes a received value only when it cannot be a secret and helps: `"8787"` given for a port says
 * "you passed a string"; an arbitrary string may be a key put in the wrong option, so it is not shown.
 */
function shown(value: unknown): string {
  if (typeof value === 'string' && /^(-?\d+(\.\d+)?|true|false)$/.test(value))
    return ` (${JSON.stringify(value)})`;
  return '';
}

function kindIssue(path: string, value: unknown, kind: OptionKind): ValidationIssue | undefined {
  if (typeof kind !== 'string') {
    if (typeof value === 'string' && kind.enum.includes(value)) return undefined;
    const choices = kind.enum.map((choice) => `'${choice}'`).join(', ');
    const got =
      typeof value === 'string' && /^[\w.-]{0,30}$/.test(value) ? `'${value}'` : describeType(value);
    return { path, message: `expected one of ${choices}, received ${got}` };
  }
  if (kind === 'number') {
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return undefined;
    const got = typeof value === 'number' && value < 0 ? 'a negative number' : describeType(value);
    return { path, message: `expected a number >= 0, received ${got}${shown(value)}` };
  }
  if (kind === 'object') {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return undefined;
  } else if (typeof value === kind) return undefined;
  const expected = kind === 'object' ? 'an object' : `a ${kind}`;
  return { path, message: `expected ${expected}, received ${describeType(value)}${shown(value)}` };
}

/**
 * One issue per option of the wrong type, e.g. `port: expected a number >= 0, received a string ("8787")`.
 * Options left undefined are not checked (required ones are the caller's to check). An array of kinds
 * accepts any of them, e.g. `['object', 'boolean']` for `rateLimit: false | {...}`; `{ enum: [...] }` lists
 * the strings an option takes.
 */
export function optionIssues(
  options: object,
  kinds: Record<string, OptionKind | readonly OptionKind[]>,
  prefix = '',
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const [name, kind] of Object.entries(kinds)) {
    const value = (options as Record<string, unknown>)[name];
    if (value === undefined) continue;
    const path = `${prefix}${name}`;
    const alternatives: readonly OptionKind[] = Array.isArray(kind) ? kind : [kind as OptionKind];
    const found = alternatives.map((k) => kindIssue(path, value, k));
    if (found.some((issue) => issue === undefined)) continue;
    issues.push(
      alternatives.length === 1
        ? found[0]!
        : {
            path,
            message: `expected ${alternatives.map((k) => (typeof k === 'string' ? `a ${k}` : `one of ${k.enum.join(', ')}`)).join(' or ')}, received ${describeType(value)}${shown(value)}`,
          },
    );
  }
  return issues;
}

/**
 * Why a credential cannot be used, or undefined when it can. The value is never quoted: only its
 * problem and the position, so a key pasted with its line break is found without being printed.
 * `inHeader` also refuses characters above U+00FF, which a header value cannot carry.
 */
export function credentialIssue(
  path: string,
  value: unknown,
  options: { inHeader?: boolean; allowEmpty?: boolean } = {},
): ValidationIssue | undefined {
  if (typeof value !== 'string')
    return { path, message: `expected a string, received ${describeType(value)}` };
  if (value.length === 0) return options.allowEmpty ? undefined : { path, message: 'is empty' };
  const control = CONTROL.exec(value);
  if (control) {
    const code = control[0].charCodeAt(0);
    const name =
      code === 10
        ? 'a line feed (LF)'
        : code === 13
          ? 'a carriage return (CR)'
          : code === 9
            ? 'a tab'
            : `control character U+${code.toString(16).padStart(4, '0').toUpperCase()}`;
    return {
      path,
      message: `contains ${name} at position ${control.index} of ${value.length}, which a request header or signature cannot carry (copied with a line break, or read from a file with a trailing newline?)`,
    };
  }
  if (options.inHeader) {
    const wide = NOT_LATIN1.exec(value);
    if (wide)
      return {
        path,
        message: `contains a character outside ISO-8859-1 at position ${wide.index} of ${value.length}, which an HTTP header cannot carry`,
      };
  }
  return undefined;
}

/** Issues of a headers option: names must be HTTP tokens, values strings a header can carry. */
export function headerIssues(headers: unknown, path = 'headers'): ValidationIssue[] {
  if (headers === undefined) return [];
  const shape = kindIssue(path, headers, 'object');
  if (shape) return [shape];
  const issues: ValidationIssue[] = [];
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
    if (!HEADER_NAME.test(name)) {
      issues.push({ path, message: `${JSON.stringify(name.slice(0, 40))} is not a valid header name` });
      continue;
    }
    if (value === undefined) continue;
    const issue = credentialIssue(`${path}.${name}`, value, { inHeader: true, allowEmpty: true });
    if (issue) issues.push(issue);
  }
  return issues;
}

export function isHeaderName(name: string): boolean {
  return HEADER_NAME.test(name);
}
