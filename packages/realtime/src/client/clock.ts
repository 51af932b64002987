/** Time as the client sees it (`@x/core/base`'s, the SDK's one clock): injected so tests drive every timer. */
export { type Clock, systemClock, Timer } from '@x/core/base';
