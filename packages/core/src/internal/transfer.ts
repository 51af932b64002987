import type { OutgoingBody } from '../body.js';

/** What the transport hands the runtime-specific streaming path (`#transfer`). */
export interface StreamedSendInput {
  method: string;
  url: URL;
  headers: Headers;
  body: Extract<OutgoingBody, { kind: 'stream' }>;
  /** Aborts the upload and the response: attempt timeout, idle timeout, deadline or caller. */
  signal: AbortSignal;
  /** Node's `http.Agent` for this origin (private CA, keep-alive), if the client was given one. */
  agent: unknown;
  /** Called with bytes handed to the socket so far; each call also counts as activity for the idle timer. */
  progress(loaded: number, total: number | undefined): void;
  /** The whole body is written: the per-attempt timeout starts now. */
  uploaded(): void;
}
