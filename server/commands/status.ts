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
    '{ kernel { version host { name } projectsRoot sessionCount indexing { filesDone filesTotal bytesDone bytesTotal done } } }',
  );
  const k = data.kernel;
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ running: true, pid: claim.pid, port: claim.port, url: claim.url, stateDir, ...k })}\n`);
    return;
  }
  const indexing = k.indexing.done ? 'done' : `${k.indexing.filesDone}/${k.indexing.filesTotal} files`;
  process.stdout.write(
    `Loom ${k.version} on ${k.host.name}, pid ${claim.pid}\n  url:       ${claim.url}\n  sessions:  ${k.sessionCount}\n` +
      `  projects:  ${k.projectsRoot}\n  indexing:  ${indexing}\n  state dir: ${stateDir}\n`,
  );
}
