import { homedir } from 'node:os';
import { basename, dirname, join, relative, sep } from 'node:path';

// Where Claude Code keeps transcripts, and what a file's place in that tree says about it.

/** `~/.claude/projects`, or `$CLAUDE_CONFIG_DIR/projects` when Claude Code is configured elsewhere. */
export function defaultProjectsRoot(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.CLAUDE_CONFIG_DIR || join(homedir(), '.claude'), 'projects');
}

export type TranscriptPlace =
  /** `<project>/<session>.jsonl` */
  | { role: 'main'; project: string; fsid: string; sessionKey: string }
  /** `<project>/<session>/subagents/agent-<id>.jsonl`: the parent is the folder */
  | { role: 'subagent'; project: string; fsid: string; sessionKey: string; parentKey: string }
  /** `<project>/agent-<id>.jsonl` (older versions): the parent is named inside, by sessionId */
  | { role: 'subagent'; project: string; fsid: string; sessionKey: string; parentKey: null };

export function placeOf(root: string, file: string): TranscriptPlace | null {
  if (!file.endsWith('.jsonl')) return null;
  const parts = relative(root, file).split(sep);
  if (parts.length < 2 || parts[0] === '..') return null;
  const project = parts[0];
  const fsid = basename(file, '.jsonl');
  if (parts.length === 2) {
    return fsid.startsWith('agent-')
      ? { role: 'subagent', project, fsid, sessionKey: fsid, parentKey: null }
      : { role: 'main', project, fsid, sessionKey: fsid };
  }
  if (parts.length === 4 && parts[2] === 'subagents') {
    return { role: 'subagent', project, fsid, sessionKey: fsid, parentKey: basename(dirname(dirname(file))) };
  }
  return null;
}
