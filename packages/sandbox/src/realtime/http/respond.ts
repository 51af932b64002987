import type { Reply } from '../../kit/reply.js';

// Pusher answers errors in plain text (for example "Invalid signature: you should have sent
// HmacSHA256Hex(...)", as quoted in pusher-http-go#91), and pusher-http-node keeps that text as the
// `RequestError`'s `body`; successes are JSON. The kit's default format sends a string as text, JSON otherwise.
export const ok = (body: unknown): Reply => ({ status: 200, body });
export const fail = (status: number, message: string): Reply => ({ status, body: message });
