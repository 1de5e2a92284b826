import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOOM, postGql } from './kernel-process';

// Child process: the first screen. `loom up` as a person starts it (compiled, its defaults:
// archive, search, index workers for this machine) indexes a projects tree from nothing, while
// this process asks it over HTTP every 20 ms for the sessions whose files are newest
// (newest-sessions.ts; more than a screen of them, since some files hold no session to list).
// Reports when the link was printed, when the first 50 of them that the finished index lists were
// all listed, then all listed with the name each has at the end, and when indexing was done, each
// timed from the command's start; and the kernel's peak RSS then, and once its search index's pass
// (which starts after indexing) is done.
//
// Each poll asks for the candidates by id in one request rather than paging through the whole
// `sessions` list, so that polling costs the indexer it is timing as little as possible.

const POLL_MS = 20;
const FIRST_SCREEN = 50;

interface Answer {
  name: string;
  parent: { key: string } | null;
}

const [root, candidatesFile] = process.argv.slice(2);
const candidates = JSON.parse(readFileSync(candidatesFile, 'utf8')) as string[];
const stateDir = mkdtempSync(join(tmpdir(), 'loom-bench-first-'));
const startedAt = performance.now();
const kernel = spawn(
  process.execPath,
  [LOOM, 'up', '--port', '0', '--projects', root, '--state', stateDir, '--no-demo', '--name', 'bench', '--limit', `aliases=${candidates.length + 1}`],
  { stdio: ['ignore', 'pipe', 'ignore'] },
);
const url = await new Promise<string>((resolve, reject) => {
  let out = '';
  kernel.stdout!.on('data', (d) => {
    out += d;
    const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
    if (m) resolve(m[0]);
  });
  kernel.once('exit', (code) => reject(new Error(`loom up exited with ${code}`)));
});
/** when `loom up` printed its link: the dashboard answers from then on */
const linkMs = performance.now() - startedAt;
const token = readFileSync(join(stateDir, 'token'), 'utf8').trim();
const agent = new Agent({ keepAlive: true });
const query = `{ kernel { indexing { done } } ${candidates.map((key, i) => `s${i}: session(id: ${JSON.stringify(`bench:${key}`)}) { name parent { key } }`).join(' ')} }`;
/** at each poll: each candidate's name if it was listed (a session of its own, not a subagent), else null */
const polls: { at: number; names: (string | null)[] }[] = [];
let doneMs: number | null = null;
while (doneMs === null) {
  const { data } = await postGql<Record<string, Answer | null> & { kernel: { indexing: { done: boolean } } }>(url, token, agent, query);
  const at = performance.now() - startedAt;
  polls.push({ at, names: candidates.map((_, i) => listedName(data[`s${i}`])) });
  if (data.kernel.indexing.done) doneMs = at;
  else await new Promise((r) => setTimeout(r, POLL_MS));
}
const peakRssMB = peakRss(kernel.pid!);
// then the search index's pass, which starts once indexing is done, every half second
const SEARCH_POLL_MS = 500;
for (;;) {
  const { data } = await postGql<{ kernel: { searchIndexing: { done: boolean } | null } }>(url, token, agent, '{ kernel { searchIndexing { done } } }');
  if (data.kernel.searchIndexing?.done !== false) break;
  await new Promise((r) => setTimeout(r, SEARCH_POLL_MS));
}
const searchPeakRssMB = peakRss(kernel.pid!);
agent.destroy();
const exited = new Promise((r) => kernel.once('exit', r));
kernel.kill('SIGTERM');
await exited;
rmSync(stateDir, { recursive: true, force: true });

const final = polls[polls.length - 1].names;
const expected = candidates
  .map((_, i) => i)
  .filter((i) => final[i] !== null)
  .slice(0, FIRST_SCREEN);
// listed with a name (one from a file's head can change once the rest is read), then with the one they end with
const listed = polls.find((p) => expected.every((i) => p.names[i] !== null))!;
const first = polls.find((p) => expected.every((i) => p.names[i] === final[i]))!;
console.log(
  JSON.stringify({ linkMs, listedMs: listed.at, firstMs: first.at, doneMs, sessions: expected.length, polls: polls.length, peakRssMB, searchPeakRssMB }),
);

/** The kernel's peak resident memory so far in MB, where /proc tells it (Linux); else null. */
function peakRss(pid: number): number | null {
  try {
    const kb = /VmHWM:\s*(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) / 1024;
  } catch {
    return null;
  }
}

function listedName(answer: Answer | null | undefined): string | null {
  return answer && answer.parent === null ? answer.name : null;
}
