import type { Reply } from '../../kit/reply.js';

// The kit's default format is the service's: a string as text, `null` as no body (its 503/504), JSON otherwise.
export const json = (body: unknown, status = 200): Reply => ({ status, body });

/** The service's one error shape: `{"error": "<message>"}`. */
export const fail = (status: number, message: string): Reply => ({ status, body: { error: message } });

export const LOOKUP_ERROR = 'Transcript lookup error, transcript id not found';
