import { APIPromise, jsonValueIssue, type RequestOptions, ValidationError } from '@x/core';
import { checkInput } from '../schemas/validate.js';
import type { StorefrontContext } from './call.js';
import {
  type BatchRequest,
  type BatchResponse,
  batchRequestsSchema,
  batchResponseSchema,
} from './schemas/batch.js';

export interface BatchOptions extends RequestOptions {
  /** `require-all-validate`: run nothing unless every request validates. Default `normal`. */
  validation?: 'normal' | 'require-all-validate' | undefined;
}

/** `/wc/store/v1/` plus the route, unless the caller gave the full path. */
function fullPath(path: string): string {
  const bare = path.replace(/^\/+/, '');
  return /^wc\/store\//i.test(bare) ? `/${bare}` : `/wc/store/v1/${bare}`;
}

/**
 * `POST batch` (StoreApi/Routes/V1/Batch.php): up to 25 cart and checkout requests in one HTTP request, run in
 * order on the session's cart. Each request carries the session itself (WooCommerce reads `Cart-Token` and
 * `Nonce` per sub-request), and the newest token a sub-response gives is kept. Sub-requests fail one by one:
 * look at each envelope's `status`; the call itself fails only when the batch does (bad path, too many).
 */
export function sendBatch(
  context: StorefrontContext,
  requests: BatchRequest[],
  options?: BatchOptions,
): APIPromise<BatchResponse> {
  const { caller } = context;
  const { validation, ...requestOptions } = options ?? {};
  const sent = caller.request(async () => {
    const checked = checkInput(batchRequestsSchema, requests, 'batch requests', context.allowUnknownFields);
    const issues = checked.flatMap((r, i) => jsonValueIssue(r.body, `${i}.body`, 32) ?? []);
    if (issues.length > 0) throw new ValidationError('batch requests', issues);
    const session: Record<string, string> = {};
    const token = await caller.session.token();
    if (token) session['Cart-Token'] = token;
    if (caller.session.nonce) session.Nonce = caller.session.nonce;
    return {
      method: 'POST' as const,
      path: '/batch',
      body: {
        ...(validation ? { validation } : {}),
        requests: checked.map((r) => ({
          method: r.method,
          path: fullPath(r.path),
          ...(r.body ? { body: r.body } : {}),
          headers: { ...r.headers, ...session },
        })),
      },
      schema: batchResponseSchema,
      what: 'batch',
      options: requestOptions,
    };
  }, true);
  return new APIPromise(
    sent
      .withResponse()
      .then(async (answer) => {
        for (const envelope of answer.data.responses) {
          const headers = envelope?.headers;
          if (!headers || Array.isArray(headers)) continue;
          const read = (name: string) => {
            const value = headers[name];
            return typeof value === 'string' ? value : null;
          };
          await caller.session.keep(read('Cart-Token'), read('Nonce'));
        }
        return answer;
      })
      .catch((error: unknown) => {
        // Past the caller's own scrub: a store's error here may quote the sub-response's token.
        throw caller.session.secrets.scrub(error);
      }),
  );
}
