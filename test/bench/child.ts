import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
// @ts-expect-error: plain JavaScript, run before anything is compiled
import { bundleOptions } from '../../server/bin/compiled.js';

// The bench's measurements each run in a process of their own, compiled as `loom` runs (one
// bundle, server/bin/compiled.js), not through tsx: what a cold index costs is what users pay,
// and tsx changes both the start (it compiles each module as it loads) and the heap the index
// runs in (tsx's own code is in it too).

const here = import.meta.dirname;
/** inside the checkout, as `loom`'s own builds are, so that the packages left out of the bundle resolve */
const BUNDLES = join(here, '..', '..', 'dist', 'bench');
/** each script's bundle, built on its first run and removed when the bench exits */
const bundles = new Map<string, string>();
process.once('exit', () => {
  for (const dir of bundles.values()) rmSync(dir, { recursive: true, force: true });
});

/** Runs a bench script in its own process, compiled; its last line of output is its JSON result. */
export async function child<Result>(script: string, args: string[]): Promise<Result> {
  const out = execFileSync(process.execPath, [await compiled(script), ...args], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out.trim().split('\n').pop()!) as Result;
}

async function compiled(script: string): Promise<string> {
  const name = script.replace(/\.ts$/, '');
  let dir = bundles.get(name);
  if (dir === undefined) {
    mkdirSync(BUNDLES, { recursive: true });
    dir = mkdtempSync(join(BUNDLES, `${name}-`));
    try {
      await build(bundleOptions({ [name]: join(here, script) }, dir));
    } catch (err) {
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
    bundles.set(name, dir);
  }
  return join(dir, `${name}.js`);
}
