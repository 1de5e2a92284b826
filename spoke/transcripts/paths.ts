import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';

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

/**
 * `path` relative to `root`, as its parts. The tree's own paths are `root` joined with names read
 * from it, so a prefix usually says it: path.relative resolves both paths first, which cost about
 * 10 µs a file while Loom's start runs it cold (20 ms of the start for 2,000 files).
 */
function partsUnder(root: string, path: string): string[] {
  const prefix = root.endsWith(sep) ? root : root + sep;
  if (path.startsWith(prefix)) {
    const parts = path.slice(prefix.length).split(sep);
    if (!parts.some((part) => part === '' || part === '.' || part === '..')) return parts;
  }
  const rel = relative(root, path);
  if (rel === '') return [];
  // another drive (Windows): outside, as `..` says
  return isAbsolute(rel) ? ['..'] : rel.split(sep);
}

export function placeOf(root: string, file: string): TranscriptPlace | null {
  if (!file.endsWith('.jsonl')) return null;
  const parts = partsUnder(root, file);
  if (parts.length < 2 || parts[0] === '..') return null;
  const project = parts[0];
  const name = parts[parts.length - 1];
  // a file named just `.jsonl` keeps its name, as path.basename leaves it
  const fsid = name === '.jsonl' ? name : name.slice(0, -'.jsonl'.length);
  if (parts.length === 2) {
    return fsid.startsWith('agent-')
      ? { role: 'subagent', project, fsid, sessionKey: fsid, parentKey: null }
      : { role: 'main', project, fsid, sessionKey: fsid };
  }
  if (parts.length === 4 && parts[2] === 'subagents') {
    return { role: 'subagent', project, fsid, sessionKey: fsid, parentKey: parts[1] };
  }
  return null;
}

/**
 * How a directory of the tree is watched: those that hold transcripts (the root's projects, a
 * session's `subagents/`) and the root always; a session's folder, which holds none itself,
 * while the session is active (to see its `subagents/` appear); nothing else holds transcripts.
 */
export function dirWatchOf(root: string, dir: string): 'always' | 'while-active' | null {
  const parts = partsUnder(root, dir);
  if (parts.length === 0) return 'always';
  if (parts[0] === '..') return null;
  if (parts.length === 1) return 'always';
  if (parts.length === 2) return 'while-active';
  return parts.length === 3 && parts[2] === 'subagents' ? 'always' : null;
}

/** The folder of the session a transcript belongs to (`<project>/<session>/`, where its subagents live), or null for the older layout. */
export function sessionFolderOf(root: string, file: string): string | null {
  const place = placeOf(root, file);
  if (place?.role === 'main') return join(dirname(file), place.fsid);
  if (place?.parentKey) return dirname(dirname(file));
  return null;
}
