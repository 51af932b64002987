import * as z from 'zod/mini';

/*
 * `GET /v3/token` on the streaming host (streaming-token.yml): what a server calls to give a browser a
 * single-use token. Apart from the connection parameters, so the REST client's bundle carries only this.
 */

const tokenParamsObject = z.strictObject({
  /** Required, 1–600: seconds in which the token must be used to open a session (it is single-use). */
  expires_in_seconds: z.number().check(z.int(), z.minimum(1), z.maximum(600)),
  /** 60–10800 (default 10800, 3 h): the longest session the token may open. */
  max_session_duration_seconds: z.optional(z.number().check(z.int(), z.minimum(60), z.maximum(10_800))),
});
/** Query of `GET /v3/token`. */
export interface StreamingTokenParams extends z.infer<typeof tokenParamsObject> {}
export const streamingTokenParams: z.ZodMiniType<StreamingTokenParams> = tokenParamsObject;

const temporaryTokenShape = z.looseObject({
  /** Pass as `token` (or return it from `getToken`); never log it. */
  token: z.string(),
  /** The expiry the service granted, in seconds (required by streaming-token.yml; the SDK ignores it). */
  expires_in_seconds: z.number(),
});
/** Answer of `GET /v3/token`. */
export interface StreamingTemporaryToken extends z.infer<typeof temporaryTokenShape> {}
export const streamingTemporaryToken: z.ZodMiniType<StreamingTemporaryToken> = temporaryTokenShape;
