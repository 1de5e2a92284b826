// Loom's hook for the events that carry an action: `node loom-action-hook.mjs <state dir> [stop]`,
// Claude Code's hook JSON on stdin. For PermissionRequest (and PreToolUse) it hands the request
// to this machine's kernel and waits for its answer; for Stop it asks whether a prompt sent
// through Loom waits for this session. It prints what the kernel answers (or nothing: Claude Code
// goes on as it would). Plain Node, no dependencies, so it starts without compiling anything; it
// never waits on a kernel that is not there, and it never outlives Claude Code's hook timeout.
// In a session Loom drives (LOOM_DRIVEN) it does nothing: canUseTool and the session's input do
// this job there.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';

/** Claude Code kills a hook after 600 s; give up a little before, saying nothing. */
const GIVE_UP_MS = 595_000;
const MAX_INPUT = 4 * 2 ** 20;

const ROUTES = { permission: '/hook/permission-request', stop: '/hook/stop' };

const [stateDir, kind = 'permission'] = process.argv.slice(2);
if (process.env.LOOM_DRIVEN || !ROUTES[kind]) process.exit(0);
setTimeout(() => process.exit(0), GIVE_UP_MS).unref();

function kernel() {
  try {
    const claim = JSON.parse(readFileSync(join(stateDir, 'kernel.json'), 'utf8'));
    const token = readFileSync(join(stateDir, 'token'), 'utf8').trim();
    const url = new URL(claim.url);
    return { hostname: url.hostname.replace(/^\[|\]$/g, ''), port: url.port, host: url.host, token };
  } catch {
    return null; // no kernel runs on this state dir: nothing to ask
  }
}

async function stdin() {
  const chunks = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += chunk.length;
    if (size > MAX_INPUT) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function ask(target, body) {
  return new Promise((resolve) => {
    const req = request(
      {
        hostname: target.hostname,
        port: target.port,
        path: ROUTES[kind],
        method: 'POST',
        headers: { host: target.host, 'content-type': 'application/json', 'x-loom-token': target.token, 'x-loom-session': process.env.LOOM_SESSION ?? '' },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve(res.statusCode === 200 ? Buffer.concat(chunks).toString('utf8') : null));
        res.on('error', () => resolve(null));
      },
    );
    req.on('error', () => resolve(null)); // refused, reset: the kernel is down or went away
    req.end(body);
  });
}

const target = stateDir ? kernel() : null;
const body = target ? await stdin() : null;
const answer = body ? await ask(target, body) : null;
// the kernel answers with the hook output Claude Code reads, already checked; anything else is no decision
if (answer) process.stdout.write(answer);
process.exit(0);
