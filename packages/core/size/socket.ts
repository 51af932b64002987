/**
 * Everything `@x/core/socket` exports, nothing shaken off: the most a WebSocket client (`@x/realtime`'s, the
 * streaming transcriber) can take from it. Imports the build, as a user's bundler does; none of ky, zod or
 * the rest of core may reach this bundle, which the limit in package.json would show at once.
 */
import * as socket from '../dist/socket.js';

console.log(socket);
