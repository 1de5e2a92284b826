#!/usr/bin/env node
// `loom`: the CLI compiled (compiled.js), or from its TypeScript sources through tsx where the
// checkout cannot hold a build.
import { compiledCli } from './compiled.js';

const compiled = await compiledCli();
if (compiled) await import(compiled);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../cli.ts');
}
