import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// A projects tree of many tiny transcripts, laid out as Claude Code lays them out: sessions
// in project dirs, and every `subagentEvery`-th session with a `<session>/subagents/` dir
// holding one agent's file. For tests and benches about following many files.

export interface TranscriptTree {
  /** every transcript file written */
  files: string[];
  /** every directory that may hold transcripts (the root, projects, session dirs, subagents/) */
  dirs: string[];
}

export interface TreeShape {
  files: number;
  projects: number;
  /** one session in this many gets a subagent file (in `<session>/subagents/`) */
  subagentEvery: number;
  /** the files' times spread evenly over this many days before now, as a history's are; all now when absent */
  spanDays?: number;
}

export function writeTranscriptTree(root: string, shape: TreeShape): TranscriptTree {
  const tree: TranscriptTree = { files: [], dirs: [root] };
  mkdirSync(root, { recursive: true });
  for (let p = 0; p < shape.projects; p++) {
    const dir = join(root, `-home-dev-project-${p}`);
    mkdirSync(dir);
    tree.dirs.push(dir);
  }
  for (let i = 0; tree.files.length < shape.files; i++) {
    const project = tree.dirs[1 + (i % shape.projects)];
    const id = sessionId(i);
    tree.files.push(writeTranscript(join(project, `${id}.jsonl`), id, `session ${i}`));
    if (i % shape.subagentEvery !== 0 || tree.files.length === shape.files) continue;
    const agents = join(project, id, 'subagents');
    mkdirSync(agents, { recursive: true });
    tree.dirs.push(join(project, id), agents);
    tree.files.push(writeTranscript(join(agents, `agent-a${i}.jsonl`), id, `agent of session ${i}`));
  }
  if (shape.spanDays) age(tree.files, shape.spanDays);
  return tree;
}

/** Dates the files from now (the first) back to `days` ago (the last). */
function age(files: string[], days: number): void {
  const now = Date.now() / 1000;
  files.forEach((path, i) => {
    const at = now - (i / files.length) * days * 86_400;
    utimesSync(path, at, at);
  });
}

/** A session id shaped like Claude Code's (a UUID), unique for `n`. */
export function sessionId(n: number): string {
  const hex = n.toString(16).padStart(12, '0');
  return `00000000-0000-4000-8000-${hex}`;
}

/** Writes a transcript of one prompt and one answer; returns its path. */
export function writeTranscript(path: string, session: string, text: string): string {
  writeFileSync(path, transcriptLine(session, `${session}-u`, null, 'user', text) + transcriptLine(session, `${session}-a`, `${session}-u`, 'assistant', 'ok'));
  return path;
}

/** One transcript line of `session`: a user prompt or an assistant's text. */
export function transcriptLine(session: string, uuid: string, parent: string | null, type: 'user' | 'assistant', text: string): string {
  const message =
    type === 'user'
      ? { role: 'user', content: text }
      : { role: 'assistant', id: `msg_${uuid}`, model: 'claude-opus-4-6', content: [{ type: 'text', text }], usage: { input_tokens: 1, output_tokens: 1 } };
  const record = { parentUuid: parent, isSidechain: false, type, uuid, sessionId: session, cwd: '/home/dev/app', timestamp: new Date().toISOString(), message };
  return `${JSON.stringify(record)}\n`;
}

/**
 * Writes a transcript of `pairs` prompts and answers, each answering the one before (uuids
 * `<prefix>-u<i>` and `<prefix>-a<i>`), each prompt `pad` bytes, after `head`; returns the path.
 */
export function writeConversation(path: string, session: string, pairs: number, { pad = 10, head = '', prefix = session } = {}): string {
  let text = head;
  for (let i = 0; i < pairs; i++) {
    text += transcriptLine(session, `${prefix}-u${i}`, i === 0 ? null : `${prefix}-a${i - 1}`, 'user', 'x'.repeat(pad));
    text += transcriptLine(session, `${prefix}-a${i}`, `${prefix}-u${i}`, 'assistant', 'ok');
  }
  writeFileSync(path, text);
  return path;
}
