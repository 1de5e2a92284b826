import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Loom's version, from package.json. */
export const VERSION: string = require('../package.json').version;
