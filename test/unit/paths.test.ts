import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultProjectsRoot, dirWatchOf, placeOf, sessionFolderOf } from '../../spoke/transcripts/paths';

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

  it('places a path the same however it and the root are written', () => {
    const main = { role: 'main', project: '-proj', fsid: 'abc', sessionKey: 'abc' };
    expect(placeOf('/p/', '/p/-proj/abc.jsonl')).toEqual(main);
    expect(placeOf('/p', '/p/-proj/./abc.jsonl')).toEqual(main);
    expect(placeOf('/p', '/p//-proj/abc.jsonl')).toEqual(main);
    expect(placeOf('/p', '/p/other/../-proj/abc.jsonl')).toEqual(main);
    expect(placeOf('/p', '/p/-proj/../../q/-proj/abc.jsonl')).toBeNull();
    expect(placeOf('/p', '/pp/-proj/abc.jsonl')).toBeNull();
    expect(dirWatchOf('/p/', '/p/-proj')).toBe('always');
    expect(dirWatchOf('/p', '/p/-proj/abc/../abc/subagents')).toBe('always');
  });

  it('keys a file named just `.jsonl` as basename did, never by an empty session key (whose id "host:" no query can open)', () => {
    // path.basename('/p/-proj/.jsonl', '.jsonl') is '.jsonl': the whole name is not taken as its extension
    expect(placeOf('/p', '/p/-proj/.jsonl')).toEqual({ role: 'main', project: '-proj', fsid: '.jsonl', sessionKey: '.jsonl' });
    expect(placeOf('/p', '/p/-proj/abc/subagents/.jsonl')).toMatchObject({ role: 'subagent', fsid: '.jsonl', sessionKey: '.jsonl', parentKey: 'abc' });
    expect(sessionFolderOf('/p', '/p/-proj/.jsonl')).not.toBe('/p/-proj');
  });

  it('watches the directories that hold transcripts always, a session folder while it is active, and nothing else', () => {
    const root = '/p';
    expect(dirWatchOf(root, '/p')).toBe('always');
    expect(dirWatchOf(root, '/p/-proj')).toBe('always');
    expect(dirWatchOf(root, '/p/-proj/abc')).toBe('while-active');
    expect(dirWatchOf(root, '/p/-proj/abc/subagents')).toBe('always');
    expect(dirWatchOf(root, '/p/-proj/abc/tool-results')).toBeNull();
    expect(dirWatchOf(root, '/p/-proj/abc/subagents/deeper')).toBeNull();
    expect(dirWatchOf(root, '/elsewhere')).toBeNull();
  });

  it("names a session's folder from its transcript or a subagent's, and none in the older layout", () => {
    const root = '/p';
    expect(sessionFolderOf(root, '/p/-proj/abc.jsonl')).toBe('/p/-proj/abc');
    expect(sessionFolderOf(root, '/p/-proj/abc/subagents/agent-1f.jsonl')).toBe('/p/-proj/abc');
    expect(sessionFolderOf(root, '/p/-proj/agent-1f.jsonl')).toBeNull();
    expect(sessionFolderOf(root, '/p/-proj/notes.txt')).toBeNull();
  });
});
