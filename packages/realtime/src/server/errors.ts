import { type ErrorDetails, XError } from '@x/core';

/**
 * The HTTP API answers errors mostly as plain text ("Unknown auth_key", "Timestamp expired: ...", "Invalid
 * signature: you should have sent HmacSHA256Hex(...)"), sometimes as JSON. Core has already parsed JSON
 * bodies; text arrives as a string. Statuses from the HTTP API reference: 400, 401, 403, 413.
 */
export function parseError(body: unknown, response: Response): ErrorDetails {
  const message = messageOf(body) ?? (response.statusText || undefined);
  switch (response.status) {
    case 401:
      return {
        message,
        hint:
          '(check key and secret: they must be the pair of this appId; and the clock: the service refuses ' +
          'an auth_timestamp more than 600 s away from its own time, so sync this machine with NTP)',
      };
    case 403:
      return {
        message,
        hint: '(the app may be disabled, or over its daily message quota: see the dashboard)',
      };
    case 413:
      return {
        code: 'payload_too_large',
        message,
        hint: "(an event's data is over the service's limit, 10 KB unless the plan raises it: split it, or send a reference the client fetches)",
      };
    default:
      return { message };
  }
}

function messageOf(body: unknown): string | undefined {
  if (typeof body === 'string') {
    const text = body.trim();
    // An HTML error page from a proxy says nothing useful in one line.
    return text && !text.startsWith('<') ? text.slice(0, 500) : undefined;
  }
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    for (const field of ['error', 'message']) {
      if (typeof record[field] === 'string') return record[field] as string;
    }
  }
  return undefined;
}

export type WebhookFailure = 'unknown_key' | 'bad_signature' | 'malformed' | 'stale';

/**
 * A webhook request that is not provably from Pusher, or too old. Answer it with 401 (or 400 for
 * `malformed`); Pusher retries failed deliveries for 5 minutes.
 */
export class WebhookVerificationError extends XError {
  static override readonly brand: string = 'WebhookVerificationError';
  readonly reason: WebhookFailure;
  constructor(reason: WebhookFailure, message: string) {
    super(message);
    this.reason = reason;
  }
  override toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message, reason: this.reason };
  }
}
