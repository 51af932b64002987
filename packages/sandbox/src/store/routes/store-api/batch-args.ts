/**
 * The arguments of `POST batch` (StoreApi/Routes/V1/Batch.php get_args()) as WP_REST_Request::has_valid_params()
 * and sanitize_params() read them with rest_validate_value_from_schema() / rest_sanitize_value_from_schema():
 * `requests` (required, an array of at most 25 objects: `method` POST|PUT|PATCH|DELETE, `path` required,
 * `body` an object, `headers` an object of strings or string lists) and `validation` (`normal` or
 * `require-all-validate`).
 */

import { validateValue } from '../../rest/params.js';
import { invalidParams, missingParams, type ParamIssue } from '../../runtime/errors.js';
import { isPlainObject } from '../../runtime/values.js';

export const MAX_BATCH_REQUESTS = 25;
const METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

export interface SubRequestArgs {
  method: string;
  path: string;
  body: Record<string, unknown>;
  /** Header values keyed by WP_REST_Request::canonicalize_header_name() (lower case, `-` as `_`). */
  headers: Map<string, string>;
}

export interface BatchArgs {
  validation: 'normal' | 'require-all-validate';
  requests: SubRequestArgs[];
}

type Check = ParamIssue | null;

function typeIssue(param: string, type: string): ParamIssue {
  return { param, code: 'rest_invalid_type', message: `${param} is not of type ${type}.`, data: { param } };
}

/** rest_is_object(): '', any PHP array (a JSON list too) or object. */
function asObject(v: unknown): Record<string, unknown> | null {
  if (isPlainObject(v)) return v;
  if (v === '') return {};
  if (Array.isArray(v)) return Object.fromEntries(v.map((x, i) => [String(i), x]));
  return null;
}

/** wp_parse_list() of a scalar (rest_is_array() / rest_sanitize_array()). */
function parseScalarList(v: string | number | boolean): string[] {
  const text = typeof v === 'boolean' ? (v ? '1' : '') : String(v);
  return text.split(/[\s,]+/).filter((s) => s !== '');
}

/**
 * One header value: the schema's type is `['string', 'array']`, so rest_get_best_type_for_value() takes a string
 * as is and anything else that rest_is_array() accepts (a list, or a scalar it splits) as a list of strings.
 */
function headerValue(param: string, v: unknown): { value: string } | ParamIssue {
  if (typeof v === 'string') return { value: v };
  let list: unknown[] | null = null;
  if (typeof v === 'number' || typeof v === 'boolean') list = parseScalarList(v);
  else if (Array.isArray(v)) list = v;
  else if (isPlainObject(v) && Object.keys(v).every((k) => /^\d+$/.test(k))) list = Object.values(v);
  if (list === null) return typeIssue(param, 'string,array');
  for (let i = 0; i < list.length; i++) {
    if (typeof list[i] !== 'string') return typeIssue(`${param}[${i}]`, 'string');
  }
  // WP_REST_Request::get_header() joins a header's values with commas.
  return { value: list.join(',') };
}

/** One item of `requests`: required properties first, then each given property in the order it was sent. */
function subRequest(param: string, raw: unknown): SubRequestArgs | ParamIssue {
  const item = asObject(raw);
  if (!item) return typeIssue(param, 'object');
  if (!('path' in item)) {
    return { param, code: 'rest_property_required', message: `path is a required property of ${param}.` };
  }
  const out: SubRequestArgs = { method: 'POST', path: '', body: {}, headers: new Map() };
  for (const [key, v] of Object.entries(item)) {
    const at = `${param}[${key}]`;
    if (key === 'method' || key === 'path') {
      const r = validateValue(
        at,
        v,
        key === 'method' ? { type: 'string', enum: METHODS } : { type: 'string' },
      );
      if (!r.ok) return r.issue;
      out[key] = r.value as string;
    } else if (key === 'body') {
      const body = asObject(v);
      if (!body) return typeIssue(at, 'object');
      out.body = body;
    } else if (key === 'headers') {
      const headers = asObject(v);
      if (!headers) return typeIssue(at, 'object');
      for (const [name, value] of Object.entries(headers)) {
        const r = headerValue(`${at}[${name}]`, value);
        if ('param' in r) return r;
        out.headers.set(name.toLowerCase().replace(/-/g, '_'), r.value);
      }
    }
  }
  return out;
}

/** `requests`: items first, then the count (rest_validate_array_value_from_schema()). */
function requestsArg(raw: unknown): SubRequestArgs[] | ParamIssue {
  let list: unknown[];
  if (Array.isArray(raw)) list = raw;
  else if (typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean')
    list = parseScalarList(raw);
  else if (isPlainObject(raw) && Object.keys(raw).every((k) => /^\d+$/.test(k))) list = Object.values(raw);
  else return typeIssue('requests', 'array');
  const out: SubRequestArgs[] = [];
  for (let i = 0; i < list.length; i++) {
    const r = subRequest(`requests[${i}]`, list[i]);
    if ('param' in r) return r;
    out.push(r);
  }
  if (out.length > MAX_BATCH_REQUESTS) {
    return {
      param: 'requests',
      code: 'rest_too_many_items',
      message: `requests must contain at most ${MAX_BATCH_REQUESTS} items.`,
    };
  }
  return out;
}

/** has_valid_params(): a missing `requests` first, then every invalid argument in one 400. */
export function readBatchArgs(params: Record<string, unknown>): BatchArgs {
  if (params.requests === undefined || params.requests === null) throw missingParams(['requests']);
  const issues: ParamIssue[] = [];
  let validation: BatchArgs['validation'] = 'normal';
  if (params.validation !== undefined && params.validation !== null) {
    const r = validateValue('validation', params.validation, {
      type: 'string',
      enum: ['require-all-validate', 'normal'],
    });
    if (r.ok) validation = r.value as BatchArgs['validation'];
    else issues.push(r.issue);
  }
  const requests = requestsArg(params.requests);
  const bad: Check = 'param' in requests ? requests : null;
  if (bad) issues.push({ ...bad, param: 'requests' });
  if (issues.length > 0 || bad) throw invalidParams(issues);
  return { validation, requests: requests as SubRequestArgs[] };
}
