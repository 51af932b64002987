import type { OutgoingBody } from '../body.js';
import type { BodyLimit, ReadText } from './read-body.js';

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

/**
 * One ordinary (not streamed) request on the Node-native path (`#transfer`'s `createNativeSender`). The
 * sender runs the attempt's clocks itself, without an AbortController (see native-node.ts), and throws
 * the same typed errors as the fetch path.
 */
export interface NativeSendInput {
  method: string;
  url: URL;
  headers: Headers;
  body: BodyInit | undefined;
  /** Per attempt: headers and body. */
  timeoutMs: number;
  /** A `stream` response: fails when no byte moved for this long before it is handed over. */
  idleTimeoutMs: number;
  /** The caller's signal merged with the call's deadline, if either exists. */
  signal: AbortSignal | undefined;
  /** `stream` hands a successful body over unread. */
  responseType: 'text' | 'stream';
  /** For a successful response (`fail`) and for an error response (`truncate`). */
  okLimit: BodyLimit;
  errorLimit: BodyLimit;
  /** `attempt 3 of 3`, for timeout messages. */
  attempt?: string | undefined;
}

/** One attempt's abort channel on the native path: `reason` is set before `abort` is emitted. */
export interface Cancel {
  readonly aborted: boolean;
  readonly reason: unknown;
  once(event: 'abort', listener: () => void): unknown;
  off(event: 'abort', listener: () => void): unknown;
}

export interface NativeResult extends ReadText {
  response: Response;
  stream: ReadableStream<Uint8Array> | undefined;
}

export type NativeSender = (input: NativeSendInput) => Promise<NativeResult>;
