import { RealtimeError } from '@x/core';

/**
 * Why a streaming session ended or could not start, as the service said it: `closeCode` is the WebSocket
 * close code, `code` the `error_code` of the `Error` message that came before it (the same number in
 * today's service), `serviceMessage` that message's text. The subclasses are the docs' closures table
 * ("Common session errors and closures"), so `instanceof` tells a bad key from a too-long session.
 */
export class StreamingError extends RealtimeError {
  static override readonly brand: string = 'StreamingError';
  /** The service's own words (the `Error` message, else the close reason), if it said any. */
  readonly serviceMessage: string | undefined;
  /** The session that ended, when it had begun. */
  readonly sessionId: string | undefined;

  constructor(
    message: string,
    init: {
      closeCode?: number;
      code?: number;
      serviceMessage?: string | undefined;
      sessionId?: string | undefined;
      cause?: unknown;
    } = {},
  ) {
    super(message, init);
    this.serviceMessage = init.serviceMessage;
    this.sessionId = init.sessionId;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), serviceMessage: this.serviceMessage, sessionId: this.sessionId };
  }
}

/** 1008: a missing, wrong or used-up key or token, or an account problem (balance, disabled). Never retried. */
export class StreamingAuthenticationError extends StreamingError {
  static override readonly brand: string = 'StreamingAuthenticationError';
}
/** 3005: the service's catch-all for its own errors. */
export class StreamingServerError extends StreamingError {
  static override readonly brand: string = 'StreamingServerError';
}
/** 3006: a message the service could not read (invalid JSON, unknown type, a bad field). */
export class StreamingInvalidMessageError extends StreamingError {
  static override readonly brand: string = 'StreamingInvalidMessageError';
}
/** 3007: a frame outside 50–1,000 ms, or audio sent faster than real time. */
export class StreamingAudioError extends StreamingError {
  static override readonly brand: string = 'StreamingAudioError';
}
/** 3008: the session reached its maximum duration (3 h, or the token's `max_session_duration_seconds`). */
export class StreamingSessionExpiredError extends StreamingError {
  static override readonly brand: string = 'StreamingSessionExpiredError';
}
/** 3009: too many concurrent sessions for the account. */
export class StreamingConcurrencyError extends StreamingError {
  static override readonly brand: string = 'StreamingConcurrencyError';
}

const BY_CODE: Record<number, typeof StreamingError> = {
  1008: StreamingAuthenticationError,
  3005: StreamingServerError,
  3006: StreamingInvalidMessageError,
  3007: StreamingAudioError,
  3008: StreamingSessionExpiredError,
  3009: StreamingConcurrencyError,
};

/**
 * The error for a close: `1008 Unauthorized Connection: Missing Authorization header`. The text is the
 * `Error` message's, else the close reason (the docs say a failure's reason is often only "See Error
 * message for details"). `redact` removes the credential, should the service ever echo it.
 */
export function closeError(
  closeCode: number,
  reason: string,
  error: { code?: number | undefined; text?: string | undefined } | undefined,
  sessionId: string | undefined,
  redact: (text: string) => string,
): StreamingError {
  const said = redact((error?.text || reason || '').slice(0, 500));
  const Class = BY_CODE[closeCode] ?? BY_CODE[error?.code ?? 0] ?? StreamingError;
  const head = `${closeCode} ${said || 'closed without a reason'}`;
  return new Class(sessionId ? `${head} (session ${sessionId})` : head, {
    closeCode,
    code: error?.code ?? closeCode,
    serviceMessage: said || undefined,
    sessionId,
  });
}

/**
 * The docs' table, where it and the `assemblyai` SDK 4.41.5 disagree: auth failures are 1008 (the SDK still
 * maps v2's 4001 and treats 1008 as retryable), and 3006–3009 are their own codes since February 2026 (older
 * pages put most of them under 3005). The docs win.
 *
 * Whether a close ends the conversation rather than the connection: auth failures and the service's own
 * 3xxx closes say the next session would fail the same way (or that it must not go on), so they are not
 * reconnected; a network drop (1006), a restart (1001, 1012) or a server fault without a code is.
 */
export function isFinalClose(closeCode: number): boolean {
  return closeCode === 1008 || (closeCode >= 3000 && closeCode <= 3999);
}
