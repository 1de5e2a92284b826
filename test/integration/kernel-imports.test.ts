import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// Every module the kernel imports statically is loaded, and its top level run, before `loom up`
// can print its link: what only some kernels need waits until they need it.

const ROOT = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);

/** The CommonJS packages loaded once the kernel's module is imported, in a fresh process. */
async function packagesLoadedByTheKernel(): Promise<string[]> {
  const probe = ["import Module from 'node:module';", "await import('./server/kernel.ts');", 'console.log(JSON.stringify(Object.keys(Module._cache)));'].join(
    '\n',
  );
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', probe], { cwd: ROOT });
  return JSON.parse(stdout) as string[];
}

describe("the kernel's imports", () => {
  it('leave ssh2 unloaded until a host is linked', async () => {
    const loaded = await packagesLoadedByTheKernel();
    // the probe sees packages at all: the search index's SQLite is one every kernel loads
    expect(loaded.some((path) => path.includes('/node_modules/better-sqlite3/'))).toBe(true);
    expect(loaded.filter((path) => path.includes('/node_modules/ssh2/'))).toEqual([]);
  });
});
