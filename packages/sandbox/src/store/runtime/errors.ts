/** A WordPress/WooCommerce REST error: serialised as `{code, message, data}`; HTTP status from `data.status`. */
export class RestError extends Error {
  readonly code: string;
  readonly status: number;
  readonly data: unknown;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    extra?: Record<string, unknown> | null,
    options: { bareData?: boolean; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'RestError';
    this.code = code;
    this.status = status;
    // WooCommerce's refund errors pass the status as a bare int (`data: 500`) instead of `{status}`.
    this.data = options.bareData ? status : { status, ...(extra ?? {}) };
    this.headers = options.headers ?? {};
  }

  toBody(): { code: string; message: string; data: unknown } {
    return { code: this.code, message: this.message, data: this.data };
  }

  /** The `{code, message, data}` triple a batch item error carries. */
  toBatchError(): { code: string; message: string; data: unknown } {
    return this.toBody();
  }
}

/**
 * An input real WooCommerce dies on (a PHP 8 TypeError, memory_limit exhausted): answered with WordPress's
 * critical-error 500 like any throw, but an emulated behaviour, not a sandbox bug, so it is not reported.
 */
export class PhpFatalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PhpFatalError';
  }
}

export function noRoute(): RestError {
  return new RestError(404, 'rest_no_route', 'No route was found matching the URL and request method.');
}

export interface ParamIssue {
  param: string;
  code: string;
  message: string;
  data?: unknown;
}

/** `400 rest_invalid_param` carrying `data.params` (messages) and `data.details` (per-param codes), as WP_REST_Request::has_valid_params(). */
export function invalidParams(issues: ParamIssue[]): RestError {
  const params: Record<string, string> = {};
  const details: Record<string, { code: string; message: string; data: unknown }> = {};
  for (const issue of issues) {
    params[issue.param] = issue.message;
    details[issue.param] = { code: issue.code, message: issue.message, data: issue.data ?? null };
  }
  return new RestError(400, 'rest_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, {
    params,
    details,
  });
}

export function missingParams(names: string[]): RestError {
  return new RestError(400, 'rest_missing_callback_param', `Missing parameter(s): ${names.join(', ')}`, {
    params: names,
  });
}

/** PHP json_last_error() codes/messages WordPress echoes in `rest_invalid_json`. */
export const JSON_ERROR = {
  depth: [1, 'Maximum stack depth exceeded'],
  syntax: [4, 'Syntax error'],
  utf8: [5, 'Malformed UTF-8 characters, possibly incorrectly encoded'],
  utf16: [10, 'Single unpaired UTF-16 surrogate in unicode escape'],
} as const satisfies Record<string, readonly [number, string]>;

export function invalidJson(kind: keyof typeof JSON_ERROR): RestError {
  const [code, message] = JSON_ERROR[kind];
  return new RestError(400, 'rest_invalid_json', 'Invalid JSON body passed.', {
    json_error_code: code,
    json_error_message: message,
  });
}

/** Capability failures: 401 when anonymous, 403 when authenticated (rest_authorization_required_code()). */
export function forbidden(authenticated: boolean, code: string, message: string): RestError {
  return new RestError(authenticated ? 403 : 401, code, message);
}

export const CAPABILITY = {
  list: ['woocommerce_rest_cannot_view', 'Sorry, you cannot list resources.'],
  view: ['woocommerce_rest_cannot_view', 'Sorry, you cannot view this resource.'],
  create: ['woocommerce_rest_cannot_create', 'Sorry, you are not allowed to create resources.'],
  edit: ['woocommerce_rest_cannot_edit', 'Sorry, you are not allowed to edit this resource.'],
  delete: ['woocommerce_rest_cannot_delete', 'Sorry, you are not allowed to delete this resource.'],
  batch: ['woocommerce_rest_cannot_batch', 'Sorry, you are not allowed to batch manipulate this resource.'],
} as const satisfies Record<string, readonly [string, string]>;

export type Capability = keyof typeof CAPABILITY;
