#!/usr/bin/env node
// Loom runs from its TypeScript sources: tsx compiles them as they load.
import { register } from 'tsx/esm/api';

// graphql-js checks every type test against copies of itself from another realm unless told it
// runs in production: a tenth of a hub's work on a merged list (docs/performance.md, Federation).
process.env.NODE_ENV ??= 'production';
register();
await import('../cli.ts');
