import type { PhpArray } from '../runtime/php.js';
import { isPlainObject } from '../runtime/values.js';
import type { Result } from './router.js';

/**
 * `_fields=a,b.c`: keeps only those (dotted) fields, as WP_REST_Controller::filter_response_by_context
 * and rest_filter_response_fields do. The field tree is a null-prototype map and only own properties are
 * read, so `_fields=__proto__.x` names a field nobody has instead of writing onto Object.prototype.
 */
function filterFields(data: unknown, fields: string[]): unknown {
  if (Array.isArray(data)) return data.map((d) => filterFields(d, fields));
  if (!isPlainObject(data)) return data;
  type Tree = Map<string, Tree | true>;
  const tree: Tree = new Map();
  for (const f of [...fields, 'id']) {
    let node = tree;
    const parts = f.split('.');
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node.set(part, true);
      else {
        let child = node.get(part);
        if (child === undefined || child === true) {
          child = new Map();
          node.set(part, child);
        }
        node = child;
      }
    });
  }
  const pick = (obj: Record<string, unknown>, t: Tree): Record<string, unknown> => {
    const out: Record<string, unknown> = Object.create(null);
    for (const [k, sub] of t) {
      if (!Object.hasOwn(obj, k)) continue;
      const value = obj[k];
      out[k] = sub === true || !isPlainObject(value) ? value : pick(value as Record<string, unknown>, sub);
    }
    return out;
  };
  return pick(data, tree);
}

/**
 * The global response parameters of WP_REST_Server::serve_request(): `_fields` trims successful bodies,
 * `_envelope` wraps any answer (errors too) as `200 {body, status, headers}`.
 */
export function shapeResult(result: Result, query: PhpArray): Result {
  if (result.status < 400 && typeof query._fields === 'string' && query._fields !== '') {
    result.body = filterFields(
      result.body,
      query._fields
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
  }
  if (query._envelope !== undefined) {
    return { status: 200, body: { body: result.body, status: result.status, headers: result.headers ?? {} } };
  }
  return result;
}
