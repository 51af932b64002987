import type { FaultMatch } from '../../kit/faults.js';

/** A fault answers the next matching HTTP API request(s) after authentication; `path` is the full path. */
export interface RealtimeHttpFault extends FaultMatch {
  status: number;
  /** Default: the text "Injected fault". A string is sent as text/plain, anything else as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
  /** Destroy the TCP connection instead of answering. */
  resetConnection?: boolean;
}
