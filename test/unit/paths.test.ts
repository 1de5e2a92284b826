import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultProjectsRoot, placeOf } from '../../spoke/transcripts/paths';

describe('where transcripts live', () => {
  it('reads ~/.claude/projects unless CLAUDE_CONFIG_DIR moves Claude Code elsewhere', () => {
    expect(defaultProjectsRoot({})).toBe(join(homedir(), '.claude', 'projects'));
    expect(defaultProjectsRoot({ CLAUDE_CONFIG_DIR: '/opt/claude' })).toBe('/opt/claude/projects');
  });

  it('tells a session file from subagent files in both layouts, and ignores anything else', () => {
    const root = '/p';
    expect(placeOf(root, '/p/-proj/abc.jsonl')).toEqual({ role: 'main', project: '-proj', fsid: 'abc', sessionKey: 'abc' });
    expect(placeOf(root, '/p/-proj/abc/subagents/agent-1f.jsonl')).toEqual({
      role: 'subagent',
      project: '-proj',
      fsid: 'agent-1f',
      sessionKey: 'agent-1f',
      parentKey: 'abc',
    });
    expect(placeOf(root, '/p/-proj/agent-1f.jsonl')).toMatchObject({ role: 'subagent', parentKey: null });
    expect(placeOf(root, '/p/-proj/notes.txt')).toBeNull();
    expect(placeOf(root, '/p/stray.jsonl')).toBeNull();
    expect(placeOf(root, '/p/-proj/abc/tool-results/x.jsonl')).toBeNull();
    expect(placeOf(root, '/elsewhere/-proj/abc.jsonl')).toBeNull();
  });
});
