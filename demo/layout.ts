// Where Claude Code keeps a session's files under ~/.claude/projects.

import { join } from 'node:path';

/** The project folder's name: the cwd with every non-alphanumeric character replaced by '-'. */
export const projectSlug = (cwd: string): string => cwd.replace(/[^A-Za-z0-9]/g, '-');

export const sessionFile = (root: string, cwd: string, sessionId: string): string => join(root, projectSlug(cwd), `${sessionId}.jsonl`);

export const subagentFile = (root: string, cwd: string, sessionId: string, agentId: string): string =>
  join(root, projectSlug(cwd), sessionId, 'subagents', `agent-${agentId}.jsonl`);
