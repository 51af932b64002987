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

/** One ordinary (not streamed) request on the Node-native path (`#transfer`'s `createNativeSender`). */
export interface NativeSendInput {
  method: string;
  url: URL;
  headers: Headers;
  body: BodyInit | undefined;
  /** Aborts the request and the body read: attempt timeout, deadline or caller. */
  signal: AbortSignal;
  /** `stream` hands a successful body over unread. */
  responseType: 'text' | 'stream';
  /** For a successful response (`fail`) and for an error response (`truncate`). */
  okLimit: BodyLimit;
  errorLimit: BodyLimit;
  /** Called for every chunk read: activity for the idle timer. */
  touch(): void;
}

export interface NativeResult extends ReadText {
  response: Response;
  stream: ReadableStream<Uint8Array> | undefined;
}

export type NativeSender = (input: NativeSendInput) => Promise<NativeResult>;
