import { invalidParams, missingParams, type ParamIssue } from '../runtime/errors.js';
import { phpIntval } from '../runtime/numbers.js';
import { isPlainObject, parseWcDate } from '../runtime/values.js';

/** A subset of the JSON-schema dialect WordPress validates request args with (rest_validate_value_from_schema). */
export type Spec =
  | { type: 'integer'; min?: number; max?: number; nullable?: boolean; required?: boolean }
  | { type: 'number'; nullable?: boolean; required?: boolean }
  | {
      type: 'string';
      enum?: readonly string[];
      format?: 'email' | 'uri' | 'date-time';
      /** `'first'`: the schema type is `['null', 'string']`, which is how error messages name it. */
      nullable?: boolean | 'first';
      required?: boolean;
    }
  | { type: 'boolean'; nullable?: boolean; required?: boolean }
  | { type: 'array'; items?: Spec; nullable?: boolean; required?: boolean }
  | { type: 'object'; props?: Record<string, Spec>; nullable?: boolean; required?: boolean }
  | { type: 'mixed'; required?: boolean };

export type Specs = Record<string, Spec>;

const NUMERIC_RE = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

function isNumeric(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  return typeof v === 'string' && NUMERIC_RE.test(v);
}

/** wp_sprintf('%l'): "a, b, and c" / "a and b". */
function listText(values: readonly string[]): string {
  if (values.length <= 1) return values.join('');
  if (values.length === 2) return `${values[0]} and ${values[1]}`;
  return `${values.slice(0, -1).join(', ')}, and ${values[values.length - 1]}`;
}

/** wp_parse_list(): arrays pass, scalars split on commas/whitespace. */
function parseList(v: unknown): unknown[] | null {
  if (Array.isArray(v)) return v;
  if (isPlainObject(v)) {
    const keys = Object.keys(v);
    if (keys.every((k) => /^\d+$/.test(k))) return keys.map((k) => v[k]);
    return null;
  }
  if (typeof v === 'string') return v.split(/[\s,]+/).filter((s) => s !== '');
  if (typeof v === 'number' || typeof v === 'boolean') return [v];
  return null;
}

type Outcome = { ok: true; value: unknown } | { ok: false; issue: ParamIssue };

export function validateValue(param: string, value: unknown, spec: Spec): Outcome {
  const typeError = (type: string): Outcome => {
    const types = spec.type === 'string' && spec.nullable === 'first' ? `null,${type}` : type;
    return {
      ok: false,
      issue: {
        param,
        code: 'rest_invalid_type',
        message: `${param} is not of type ${types}.`,
        data: { param },
      },
    };
  };
  if (spec.type === 'mixed') return { ok: true, value };
  if (value === null && spec.nullable) return { ok: true, value: null };
  switch (spec.type) {
    case 'integer': {
      // rest_is_integer(): is_numeric() holds for every PHP float, INF (a JSON 1e400) included.
      const infinite = typeof value === 'number' && Math.abs(value) === Infinity;
      if ((!isNumeric(value) && !infinite) || typeof value === 'boolean') return typeError('integer');
      const n = Number(value);
      if (Math.round(n) !== n) return typeError('integer');
      if (spec.min !== undefined && spec.max !== undefined && (n < spec.min || n > spec.max)) {
        return {
          ok: false,
          issue: {
            param,
            code: 'rest_out_of_bounds',
            message: `${param} must be between ${spec.min} (inclusive) and ${spec.max} (inclusive)`,
          },
        };
      }
      if (spec.min !== undefined && n < spec.min) {
        return {
          ok: false,
          issue: {
            param,
            code: 'rest_out_of_bounds',
            message: `${param} must be greater than or equal to ${spec.min}`,
          },
        };
      }
      if (spec.max !== undefined && n > spec.max) {
        return {
          ok: false,
          issue: {
            param,
            code: 'rest_out_of_bounds',
            message: `${param} must be less than or equal to ${spec.max}`,
          },
        };
      }
      // rest_sanitize_value_from_schema(): `(int) $value`, so 1e308 is 0 (PHP wraps floats modulo 2^64).
      return { ok: true, value: phpIntval(value) };
    }
    case 'number': {
      if (!isNumeric(value)) return typeError('number');
      return { ok: true, value: Number(value) };
    }
    case 'boolean': {
      if (typeof value === 'boolean') return { ok: true, value };
      if (value === 0 || value === 1) return { ok: true, value: value === 1 };
      if (typeof value === 'string' && ['0', '1', 'false', 'true', ''].includes(value.toLowerCase())) {
        const v = value.toLowerCase();
        return { ok: true, value: v === '1' || v === 'true' };
      }
      return typeError('boolean');
    }
    case 'string': {
      if (typeof value !== 'string') return typeError('string');
      if (spec.enum && !spec.enum.includes(value)) {
        return {
          ok: false,
          issue: {
            param,
            code: 'rest_not_in_enum',
            // rest_validate_enum(): "%1$s is not %2$s." when there is a single value.
            message:
              spec.enum.length === 1
                ? `${param} is not ${spec.enum[0]}.`
                : `${param} is not one of ${listText(spec.enum)}.`,
          },
        };
      }
      if (spec.format === 'date-time' && parseWcDate(value) === null) {
        return { ok: false, issue: { param, code: 'rest_invalid_date', message: 'Invalid date.' } };
      }
      if (spec.format === 'email' && value !== '' && !isEmail(value)) {
        return { ok: false, issue: { param, code: 'rest_invalid_email', message: 'Invalid email address.' } };
      }
      if (spec.format === 'uri' && value !== '' && !isUri(value)) {
        return { ok: false, issue: { param, code: 'rest_invalid_uri', message: 'Invalid URI.' } };
      }
      return { ok: true, value };
    }
    case 'array': {
      const list = parseList(value);
      if (list === null) return typeError('array');
      if (!spec.items) return { ok: true, value: list };
      const out: unknown[] = [];
      for (let i = 0; i < list.length; i++) {
        const r = validateValue(`${param}[${i}]`, list[i], spec.items);
        if (!r.ok) return r;
        out.push(r.value);
      }
      return { ok: true, value: out };
    }
    case 'object': {
      let obj: Record<string, unknown>;
      if (isPlainObject(value)) obj = value;
      else if (value === '' || (Array.isArray(value) && value.length === 0)) obj = {};
      else return typeError('object');
      if (!spec.props) return { ok: true, value: obj };
      const out: Record<string, unknown> = { ...obj };
      for (const [key, sub] of Object.entries(spec.props)) {
        if (!(key in obj) || obj[key] === undefined) continue;
        const r = validateValue(`${param}[${key}]`, obj[key], sub);
        if (!r.ok) return r;
        out[key] = r.value;
      }
      return { ok: true, value: out };
    }
  }
}

export function isEmail(v: string): boolean {
  // is_email(): local@domain.tld with at least one dot in the domain.
  return /^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]+@[a-zA-Z0-9-]+(\.[a-zA-Z0-9-]+)+$/.test(v) && v.length >= 6;
}

function isUri(v: string): boolean {
  try {
    new URL(v);
    return true;
  } catch {
    return false;
  }
}

/**
 * A top-level `null` is never validated: has_valid_params() checks get_param(), and isset() skips a null, so
 * get_param() falls through to the query, URL and defaults. WP_REST_Request::sanitize_params() then runs the
 * arg's rest_sanitize_request_arg() over the null itself, and rest_sanitize_value_from_schema() casts it: (string)
 * gives '', (int) 0, (float) 0, rest_sanitize_boolean() false, rest_sanitize_array() / rest_sanitize_object() an
 * empty array. A type list that includes 'null' (and 'mixed') keeps it null. The handler sees that value, which
 * shadows the arg's default.
 */
function sanitizeNull(spec: Spec): unknown {
  if (spec.type === 'mixed' || spec.nullable) return null;
  switch (spec.type) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
  }
}

/**
 * Validates and coerces `params` against `specs` the way WP_REST_Request::has_valid_params() does:
 * missing required args first (rest_missing_callback_param), then every invalid arg reported at once.
 * Returns a copy with coerced values; unknown params pass through untouched.
 */
export function validateParams(params: Record<string, unknown>, specs: Specs): Record<string, unknown> {
  const missing = Object.entries(specs)
    .filter(([name, spec]) => spec.required && (params[name] === undefined || params[name] === null))
    .map(([name]) => name);
  if (missing.length > 0) throw missingParams(missing);
  const issues: ParamIssue[] = [];
  const out: Record<string, unknown> = { ...params };
  for (const [name, spec] of Object.entries(specs)) {
    if (!(name in params) || params[name] === undefined) continue;
    if (params[name] === null) {
      out[name] = sanitizeNull(spec);
      continue;
    }
    const r = validateValue(name, params[name], spec);
    if (r.ok) out[name] = r.value;
    else issues.push({ ...r.issue, param: name });
  }
  if (issues.length > 0) throw invalidParams(issues);
  return out;
}
