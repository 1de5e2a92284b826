import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boundHeapGrowth } from '../../server/heap-growth';
import { startKernel } from '../../server/kernel';
import { DEFAULT_LIMITS } from '../../server/security/limits';
import { postGql } from './kernel-process';

// the kernel's heap as `loom up` sets it
boundHeapGrowth();

// Child process: the first screen. A real kernel, started in this process as `loom up` starts
// it, indexes a projects tree from nothing while this process asks it over HTTP every 20 ms for
// the sessions whose files are newest (newest-sessions.ts; more than a screen of them, since
// some files hold no session to list). Reports when the first 50 of them that the finished index
// lists were all listed, each with the name it has at the end, timed from the process's start;
// and when indexing was done.
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
const kernel = await startKernel({ projectsRoot: root, stateDir, port: 0, hostName: 'bench', limits: { ...DEFAULT_LIMITS, aliases: candidates.length } });
let doneMs: number | null = null;
void kernel.indexed.then(() => (doneMs = performance.now()));

const token = readFileSync(join(stateDir, 'token'), 'utf8').trim();
const agent = new Agent({ keepAlive: true });
const query = `{ ${candidates.map((key, i) => `s${i}: session(id: ${JSON.stringify(`bench:${key}`)}) { name parent { key } }`).join(' ')} }`;
/** at each poll: each candidate's name if it was listed (a session of its own, not a subagent), else null */
const polls: { at: number; names: (string | null)[] }[] = [];
for (let last = false; !last; ) {
  last = doneMs !== null;
  const { data } = await postGql<Record<string, Answer | null>>(kernel.url, token, agent, query);
  polls.push({ at: performance.now(), names: candidates.map((_, i) => listedName(data[`s${i}`])) });
  if (!last) await new Promise((r) => setTimeout(r, POLL_MS));
}
agent.destroy();
await kernel.close();
rmSync(stateDir, { recursive: true, force: true });

const final = polls[polls.length - 1].names;
const expected = candidates
  .map((_, i) => i)
  .filter((i) => final[i] !== null)
  .slice(0, FIRST_SCREEN);
const first = polls.find((p) => expected.every((i) => p.names[i] === final[i]))!;
console.log(JSON.stringify({ firstMs: first.at, doneMs, sessions: expected.length, polls: polls.length }));

function listedName(answer: Answer | null | undefined): string | null {
  return answer && answer.parent === null ? answer.name : null;
}
