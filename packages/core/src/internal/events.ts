import type { PreparedRequest } from '../auth.js';
import type { RedactingLogger } from '../log.js';
import type { Hooks } from '../options.js';
import type { SendResult } from '../transport.js';

/** One attempt as the request loop sees it: sent with a response, or failed in the transport. */
export type Attempt =
  | ({ kind: 'sent'; prepared: PreparedRequest; shownUrl: () => string; durationMs: number } & SendResult)
  | { kind: 'failed'; prepared: PreparedRequest; shownUrl: () => string; error: Error };

/** The `afterResponse` hook and the one info line per response. */
export async function reportResponse(
  hooks: Hooks,
  logger: RedactingLogger,
  call: { attempt: number; retries: number },
  sent: Extract<Attempt, { kind: 'sent' }>,
  requestId: string | undefined,
): Promise<void> {
  const { response, prepared } = sent;
  if (hooks.afterResponse) {
    await hooks.afterResponse({
      method: prepared.method,
      url: sent.shownUrl(),
      attempt: call.attempt,
      status: response.status,
      durationMs: sent.durationMs,
      requestId,
      response,
    });
  }
  if (logger.enabled('info')) {
    const retried = call.retries > 0 ? ` after ${call.retries} retries` : '';
    const id = requestId ? ` (request_id=${requestId})` : '';
    logger.info(
      `${prepared.method} ${sent.shownUrl()} → ${response.status} in ${sent.durationMs} ms${id}${retried}`,
    );
  }
}
