import { parseArgs } from 'node:util';
import { readClaim, resolveStateDir } from '../state-dir';
import { askKernel } from './ask-kernel';
import { fail } from './fail';

// `loom status`: find the kernel that holds the state dir and ask it how it is.

interface KernelStatus {
  version: string;
  host: { name: string };
  projectsRoot: string;
  sessionCount: number;
  indexing: { filesDone: number; filesTotal: number; bytesDone: number; bytesTotal: number; done: boolean };
  searchIndexing: { filesDone: number; filesTotal: number; done: boolean } | null;
  archive: {
    files: number;
    rawBytes: number;
    storedBytes: number;
    capBytes: number | null;
    archiveOnly: number;
    dropped: { files: number; archiveOnly: number };
  } | null;
}

export async function status(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { state: { type: 'string' }, json: { type: 'boolean' } } });
  const stateDir = resolveStateDir(values.state);
  const claim = readClaim(stateDir);
  if (!claim) {
    if (values.json) process.stdout.write(`${JSON.stringify({ running: false, stateDir })}\n`);
    return fail(`no kernel is running on ${stateDir}; start one with: loom up`);
  }
  const { data } = await askKernel<{ kernel: KernelStatus }>(
    stateDir,
    `{ kernel { version host { name } projectsRoot sessionCount indexing { filesDone filesTotal bytesDone bytesTotal done }
       searchIndexing { filesDone filesTotal done }
       archive { files rawBytes storedBytes capBytes archiveOnly dropped { files archiveOnly } } } }`,
  );
  const k = data.kernel;
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ running: true, pid: claim.pid, port: claim.port, url: claim.url, stateDir, ...k })}\n`);
    return;
  }
  const indexing = k.indexing.done ? 'done' : `${k.indexing.filesDone}/${k.indexing.filesTotal} files`;
  const search = !k.searchIndexing ? 'off' : k.searchIndexing.done ? 'done' : `${k.searchIndexing.filesDone}/${k.searchIndexing.filesTotal} files`;
  process.stdout.write(
    `Loom ${k.version} on ${k.host.name}, pid ${claim.pid}\n  url:       ${claim.url}\n  sessions:  ${k.sessionCount}\n` +
      `  projects:  ${k.projectsRoot}\n  indexing:  ${indexing}\n  search:    ${search}\n  archive:   ${archiveLine(k.archive)}\n  state dir: ${stateDir}\n`,
  );
}

/** What the archive holds and what its cap has dropped, in one line. */
function archiveLine(a: KernelStatus['archive']): string {
  if (!a) return 'off (deleted transcripts are not kept)';
  const cap = a.capBytes === null ? 'no cap' : `cap ${size(a.capBytes)}`;
  const dropped =
    a.dropped.files === 0 ? 'nothing dropped' : `the cap dropped ${a.dropped.files} copies, ${a.dropped.archiveOnly} of them of deleted transcripts`;
  return `${a.files} transcripts, ${size(a.rawBytes)} kept in ${size(a.storedBytes)} (${cap}, oldest dropped first, even when its transcript is deleted); ${a.archiveOnly} deleted by Claude Code and kept only here; ${dropped}`;
}

function size(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let n = bytes;
  let unit = 0;
  while (n >= 1024 && unit < units.length - 1) {
    n /= 1024;
    unit++;
  }
  return `${n.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}
