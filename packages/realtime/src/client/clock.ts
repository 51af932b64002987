/** Time as the client sees it (`@x/core/socket`'s): injected so unit tests drive every timer by hand. */
export { type Clock, systemClock, Timer } from '@x/core/socket';
