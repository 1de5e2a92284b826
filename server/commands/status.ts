import { parseArgs } from 'node:util';
import { TOKEN_HEADER } from '../security/access';
import { readToken } from '../security/token';
import { readClaim, resolveStateDir } from '../state-dir';
import { fail } from './fail';

// `loom status`: find the kernel that holds the state dir and ask it how it is.

export async function status(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { state: { type: 'string' }, json: { type: 'boolean' } } });
  const stateDir = resolveStateDir(values.state);
  const claim = readClaim(stateDir);
  if (!claim) {
    if (values.json) process.stdout.write(`${JSON.stringify({ running: false, stateDir })}\n`);
    return fail(`no kernel is running on ${stateDir}; start one with: loom up`);
  }
  let token: string;
  try {
    token = readToken(stateDir);
  } catch (err) {
    return fail(`cannot read the token in ${stateDir}: ${(err as Error).message}`);
  }
  const res = await fetch(new URL('graphql', claim.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token },
    body: JSON.stringify({ query: '{ kernel { version host { name } projectsRoot sessionCount indexing { filesDone filesTotal bytesDone bytesTotal done } } }' }),
  }).catch((err: Error) => fail(`the kernel (pid ${claim.pid}) did not answer on port ${claim.port}: ${err.message}`));
  if (!res.ok) return fail(`the kernel refused the request (${res.status}): ${(await res.text()).trim()}`);
  const body = (await res.json()) as { data?: { kernel: any }; errors?: { message: string }[] };
  if (!body.data) return fail(`the kernel answered with an error: ${body.errors?.[0]?.message ?? res.status}`);
  const k = body.data.kernel;
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

