import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSyntheticCorpus } from '../../demo/index';

/** A synthetic projects tree of about `bytes`, generated once and kept for later runs. */
export function ensureCorpus(bytes: number, files: number): Promise<string> {
  return cachedCorpus(`corpus-${bytes}-${files}`, (projects) => writeSyntheticCorpus(projects, { totalBytes: bytes, files, seed: 7 }));
}

/**
 * A projects tree kept under `$LOOM_BENCH_DIR` (default `/tmp/loom-bench`) by name: written once
 * by `write`, then found complete by every later run.
 */
export async function cachedCorpus(name: string, write: (projects: string) => Promise<unknown>): Promise<string> {
  const dir = join(process.env.LOOM_BENCH_DIR ?? join(tmpdir(), 'loom-bench'), name);
  const done = join(dir, '.complete');
  const projects = join(dir, 'projects');
  if (existsSync(done)) return projects;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const result = await write(projects);
  writeFileSync(done, JSON.stringify(result));
  return projects;
}
