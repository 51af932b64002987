/** Everything `@x/core` exports, for information: the size of `import * as core` with nothing shaken off. */
import * as core from '../dist/index.js';

console.log(core);
