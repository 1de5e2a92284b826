// `loom hook <Event>`: what Claude Code runs on each hook event. It must never slow or break
// Claude Code: plain JavaScript with nothing to load, one append, exit 0 whatever happens (a
// failure goes to <state>/hook-errors.log). The kernel reads the lines and decides what they mean.

import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const SAFE_ID = /^[A-Za-z0-9._-]{1,128}$/;
/** the fields of each event worth keeping: never the prompt text or tool input */
const KEEP = ['session_id', 'transcript_path', 'cwd', 'hook_event_name', 'message', 'notification_type', 'trigger', 'source', 'reason', 'stop_hook_active'];

/**
 * mkdir -p, one level at a time: Node's own recursive mkdirSync spins forever on some paths
 * (under /proc, for one), and a hook must never hang.
 */
function makeDirs(dir) {
  const missing = [];
  for (let d = dir; d !== dirname(d); d = dirname(d)) {
    try {
      mkdirSync(d, { mode: 0o700 });
      break;
    } catch (err) {
      if (err.code === 'EEXIST') break;
      if (err.code !== 'ENOENT') throw err;
      missing.push(d);
    }
  }
  for (const d of missing.reverse()) mkdirSync(d, { mode: 0o700 });
}

function stateDir(args) {
  const flag = args.indexOf('--state');
  if (flag >= 0 && args[flag + 1]) return args[flag + 1];
  if (process.env.LOOM_STATE_DIR) return process.env.LOOM_STATE_DIR;
  return join(process.env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'loom');
}

export function runHook(args) {
  const dir = stateDir(args);
  const event = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--state') ?? 'unknown';
  try {
    const input = JSON.parse(readFileSync(0, 'utf8'));
    if (typeof input !== 'object' || input === null) throw new Error('hook input is not a JSON object');
    if (typeof input.session_id !== 'string' || !SAFE_ID.test(input.session_id)) throw new Error(`hook input has no usable session_id`);
    const line = { t: new Date().toISOString(), event };
    for (const key of KEEP) if (input[key] !== undefined) line[key] = input[key];
    if (process.env.LOOM_SESSION && SAFE_ID.test(process.env.LOOM_SESSION)) line.loom_session = process.env.LOOM_SESSION;
    makeDirs(join(dir, 'states'));
    appendFileSync(join(dir, 'states', `${input.session_id}.jsonl`), `${JSON.stringify(line)}\n`, { mode: 0o600 });
  } catch (err) {
    try {
      makeDirs(dir);
      appendFileSync(join(dir, 'hook-errors.log'), `${new Date().toISOString()} ${event}: ${err instanceof Error ? err.message : String(err)}\n`, { mode: 0o600 });
    } catch {
      // Nowhere to write: still exit 0, Claude Code must go on.
    }
  }
  process.exitCode = 0;
}

// `loom hooks install` points Claude Code at this file directly: run when it is the program.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) runHook(process.argv.slice(2));
