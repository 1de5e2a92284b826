import { mkdir, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { FIXTURES } from '../helpers/kernel';
import { cachedCorpus } from './corpus';
import { CopyIds, TranscriptIds } from './transcript-ids';

// A corpus of real transcripts at any size: the real fixtures (../shared/fixtures, 36 files,
// 18 MB) copied k times, copy k in project folders of its own (`<project>-r0007`), every id
// rewritten to one of the same length (transcript-ids.ts) and every other byte as it was.
// File times spread the copies: copy k is a day older than copy k-1, and within a copy files are
// a minute apart, in the order of their last record, so "newest first" means something.

/** bump when the recipe changes: corpora written by an older one are not reused */
const RECIPE = 'v1';
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

export interface CopiedFile {
  source: string;
  copy: string;
  copyIndex: number;
}

/** About `bytes` of copies of the fixtures (at least one copy), generated once and kept for later runs. */
export async function ensureRealCorpus(bytes: number): Promise<string> {
  const sourceBytes = (await Promise.all((await transcriptPaths(FIXTURES)).map(async (p) => (await stat(join(FIXTURES, p))).size))).reduce((a, b) => a + b, 0);
  const copies = Math.max(1, Math.round(bytes / sourceBytes));
  return cachedCorpus(`real-${RECIPE}-${copies}`, async (projects) => {
    const written = await writeRealCorpus(projects, copies);
    return { copies, files: written.files.length, bytes: written.bytes };
  });
}

/** Writes `copies` copies of the transcripts under `source` into `target`. */
export async function writeRealCorpus(target: string, copies: number, now = Date.now(), source = FIXTURES): Promise<{ files: CopiedFile[]; bytes: number }> {
  const texts = new Map<string, string>();
  for (const path of await transcriptPaths(source)) texts.set(path, await readFile(join(source, path), 'latin1'));
  const ids = TranscriptIds.of(texts);
  const taken = new Set<string>();
  for (const [path, text] of texts) for (const id of [...ids.in(path), ...ids.in(text)]) taken.add(id);
  const newestFirst = [...texts.keys()].sort((a, b) => lastTimestamp(texts.get(b)!).localeCompare(lastTimestamp(texts.get(a)!)) || a.localeCompare(b));

  const files: CopiedFile[] = [];
  let bytes = 0;
  for (let copyIndex = 0; copyIndex < copies; copyIndex++) {
    const copyIds = new CopyIds(ids, copyIndex, taken);
    for (const [rank, path] of newestFirst.entries()) {
      const [project, ...rest] = path.split('/');
      const copy = join(target, `${project}-r${String(copyIndex).padStart(4, '0')}`, ...rest.map((part) => copyIds.rewrite(part)));
      const data = Buffer.from(copyIds.rewrite(texts.get(path)!), 'latin1');
      await mkdir(dirname(copy), { recursive: true });
      await writeFile(copy, data);
      const at = new Date(now - copyIndex * DAY_MS - rank * MINUTE_MS);
      await utimes(copy, at, at);
      files.push({ source: join(source, path), copy, copyIndex });
      bytes += data.length;
    }
  }
  return { files, bytes };
}

/** Every transcript under a projects root, as `/`-separated paths under it, sorted. */
async function transcriptPaths(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.jsonl'))
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

/** The latest `timestamp` of a transcript's records ('' when none has one). */
function lastTimestamp(text: string): string {
  let last = '';
  for (const m of text.matchAll(/"timestamp":"([^"]+)"/g)) if (m[1] > last) last = m[1];
  return last;
}
