/**
 * The dispatcher behind channels, the connection and the user is `@x/core/socket`'s `Emitter`: named
 * callbacks plus catch-all ones; a throwing callback is logged (`where` names the emitter) and does not stop
 * the others, so one bad handler cannot starve the rest of an event.
 */
export { Emitter } from '@x/core/socket';

/** A callback of a named event: the payload, and for channel events the metadata. */
export type Callback = (...args: any[]) => void;
export type GlobalCallback = (event: string, data: unknown, ...rest: unknown[]) => void;
