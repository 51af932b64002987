import * as z from 'zod/mini';

/** `POST /users/{id}/terminate_connections`: `{}` (an empty body is read as `{}`). */
export const terminateResult = z._default(z.looseObject({}), {});
export type TerminateResult = z.infer<typeof terminateResult>;
