#!/usr/bin/env node
// Loom runs from its TypeScript sources: tsx compiles them as they load. `loom hook` is the
// exception: Claude Code waits for it, so it is plain JavaScript that loads nothing else.

if (process.argv[2] === 'hook') {
  const { runHook } = await import('./loom-hook.js');
  runHook(process.argv.slice(3));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../cli.ts');
}
