import { describe, expect, it } from 'vitest';
import { portionsOf } from '../../spoke/transcripts/index-portions';
import { placeOf } from '../../spoke/transcripts/paths';

// How the rest of the first index is cut for the index workers and the kernel's thread: each
// project's files a few MB at a time, a session's files never apart.

const ROOT = '/p';
const MB = 1 << 20;
const file = (path: string, mb: number) => ({ path: `${ROOT}/${path}`, size: mb * MB });
const cut = (files: { path: string; size: number }[], limit = 8 * MB) =>
  portionsOf(files, (path) => placeOf(ROOT, path) ?? undefined, limit).map((p) => ({
    project: p.project,
    files: p.files.map((f) => f.path.slice(ROOT.length + 1)),
    mb: p.bytes / MB,
  }));

describe('portions of the first index', () => {
  it("cut a project's sessions into portions of at most the limit, in the order given", () => {
    const files = [file('app/a.jsonl', 3), file('app/b.jsonl', 3), file('app/c.jsonl', 3), file('app/d.jsonl', 1), file('app/e.jsonl', 5)];
    expect(cut(files)).toEqual([
      { project: 'app', files: ['app/a.jsonl', 'app/b.jsonl'], mb: 6 },
      { project: 'app', files: ['app/c.jsonl', 'app/d.jsonl'], mb: 4 },
      { project: 'app', files: ['app/e.jsonl'], mb: 5 },
    ]);
  });

  it("keep a session's subagent files in its portion, wherever they come in the order", () => {
    const files = [
      file('app/a.jsonl', 4),
      file('app/b.jsonl', 4),
      file('app/c.jsonl', 4),
      file('app/a/subagents/agent-1.jsonl', 2),
      file('app/agent-old.jsonl', 1),
    ];
    expect(cut(files)).toEqual([
      { project: 'app', files: ['app/a.jsonl', 'app/a/subagents/agent-1.jsonl'], mb: 6 },
      { project: 'app', files: ['app/b.jsonl', 'app/c.jsonl'], mb: 8 },
      // the older layout names its parent inside the file: it goes where its bytes fit
      { project: 'app', files: ['app/agent-old.jsonl'], mb: 1 },
    ]);
  });

  it('never put two projects in one portion, and order portions by their first file', () => {
    const files = [file('web/a.jsonl', 1), file('api/b.jsonl', 1), file('web/c.jsonl', 1), file('api/d.jsonl', 1)];
    expect(cut(files)).toEqual([
      { project: 'web', files: ['web/a.jsonl', 'web/c.jsonl'], mb: 2 },
      { project: 'api', files: ['api/b.jsonl', 'api/d.jsonl'], mb: 2 },
    ]);
  });

  it('give a session larger than the limit a portion of its own, and at a limit of one byte every session one', () => {
    const files = [file('app/a.jsonl', 1), file('app/huge.jsonl', 20), file('app/b.jsonl', 1)];
    expect(cut(files).map((p) => p.files)).toEqual([['app/a.jsonl'], ['app/huge.jsonl'], ['app/b.jsonl']]);
    expect(cut([file('app/a.jsonl', 1), file('app/a/subagents/agent-1.jsonl', 1), file('app/b.jsonl', 1)], 1).map((p) => p.files)).toEqual([
      ['app/a.jsonl', 'app/a/subagents/agent-1.jsonl'],
      ['app/b.jsonl'],
    ]);
  });
});
