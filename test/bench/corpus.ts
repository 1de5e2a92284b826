import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSyntheticCorpus } from '../../demo/index';

/** A synthetic projects tree of about `bytes`, generated once and kept for later runs. */
export async function ensureCorpus(bytes: number, files: number): Promise<string> {
  const dir = join(process.env.LOOM_BENCH_DIR ?? join(tmpdir(), 'loom-bench'), `corpus-${bytes}-${files}`);
  const done = join(dir, '.complete');
  if (existsSync(done)) return join(dir, 'projects');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const result = await writeSyntheticCorpus(join(dir, 'projects'), { totalBytes: bytes, files, seed: 7 });
  writeFileSync(done, JSON.stringify(result));
  return join(dir, 'projects');
}
