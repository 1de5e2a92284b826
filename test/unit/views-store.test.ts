import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConflictError, NotFoundError } from '../../spoke/model/source';
import type { Lens } from '../../spoke/model/views';
import { MAX_TAGS, ViewsStore } from '../../spoke/views/views-store';

const LENS: Lens = { filter: '', tagIds: [], untagged: false, order: 'RECENT' };

let dir: string;
let logged: string[];
const open = () => new ViewsStore(dir, { log: (m) => logged.push(m) });
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loom-views-'));
  logged = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the views store', () => {
  it('acknowledges each targeted edit with the seq it produced, one more than the last', () => {
    const store = open();
    const start = store.get().seq;
    const work = store.createTag('work', '#3366CC');
    expect(work.seq).toBe(start + 1);
    expect(work.value).toMatchObject({ name: 'work', color: '#3366cc', members: [] });
    const seqs = [
      store.addMember(work.value.id, 's1').seq,
      store.renameTag(work.value.id, 'Work').seq,
      store.recolorTag(work.value.id, '#112233').seq,
      store.nameSession('s1', 'the api').seq,
    ];
    expect(seqs).toEqual([start + 2, start + 3, start + 4, start + 5]);
    expect(store.get()).toMatchObject({ seq: start + 5, tags: [{ name: 'Work', color: '#112233', members: ['s1'] }], sessionNames: { s1: 'the api' } });
  });

  it('merges targeted edits whatever the writer last read: a member added twice is there once, one removed from a tag it left is fine', () => {
    const store = open();
    const { value: tag } = store.createTag('work', '#000000');
    store.addMember(tag.id, 's1');
    store.addMember(tag.id, 's1');
    store.addMember(tag.id, 's2');
    store.removeMember(tag.id, 's3');
    expect(store.get().tags[0].members).toEqual(['s1', 's2']);
  });

  it('moves a session from one tag to another in one write', () => {
    const store = open();
    const a = store.createTag('a', '#000000').value;
    const b = store.createTag('b', '#000000').value;
    store.addMember(a.id, 's1');
    const moved = store.moveMember('s1', a.id, b.id);
    expect(moved.views.tags.map((t) => [t.name, t.members])).toEqual([
      ['a', []],
      ['b', ['s1']],
    ]);
  });

  it('refuses a whole write made from an older seq with CONFLICT, and takes one made from the current seq', () => {
    const store = open();
    const a = store.createTag('a', '#000000').value;
    const read = store.createTag('b', '#000000');
    store.addMember(a.id, 's1'); // another writer, after `read`
    const order = [read.value.id, a.id];
    expect(() => store.setTagOrder(order, read.seq)).toThrow(ConflictError);
    expect(() => store.saveView({ id: null, name: 'mine' }, LENS, read.seq)).toThrow(/changed since seq/);
    const now = store.get().seq;
    expect(store.setTagOrder(order, now).views.tags.map((t) => t.name)).toEqual(['b', 'a']);
    expect(store.get().tags[1].members).toEqual(['s1']);
  });

  it(`keeps at most ${MAX_TAGS} tags`, () => {
    const store = open();
    for (let i = 0; i < MAX_TAGS; i++) store.createTag(`tag ${i}`, '#000000');
    expect(() => store.createTag('one more', '#000000')).toThrow(`a kernel keeps at most ${MAX_TAGS} tags; delete one first`);
    expect(store.get().tags).toHaveLength(MAX_TAGS);
  });

  it('refuses a name another tag has, whatever its case or surrounding spaces, for a new tag and a rename', () => {
    const store = open();
    store.createTag('Work', '#000000');
    const other = store.createTag('home', '#000000').value;
    expect(() => store.createTag(' work ', '#000000')).toThrow(new ConflictError('a tag named "Work" exists on this host'));
    expect(() => store.renameTag(other.id, 'WORK')).toThrow(ConflictError);
    expect(store.renameTag(other.id, 'Home').value.name).toBe('Home');
  });

  it('refuses edits of a tag that is gone, and a colour that is not #rrggbb', () => {
    const store = open();
    const tag = store.createTag('a', '#000000').value;
    store.deleteTag(tag.id);
    expect(() => store.addMember(tag.id, 's1')).toThrow(NotFoundError);
    expect(() => store.createTag('b', 'red')).toThrow('a tag\'s colour is "#rrggbb", got "red"');
  });

  it('deleting a tag takes it out of the saved views that named it', () => {
    const store = open();
    const tag = store.createTag('a', '#000000').value;
    store.saveView({ id: null, name: 'a only' }, { ...LENS, tagIds: [tag.id] }, store.get().seq);
    store.deleteTag(tag.id);
    expect(store.get().views[0].tagIds).toEqual([]);
  });

  it('keeps everything across a restart, and its seq goes on from where it was', () => {
    const first = open();
    const tag = first.createTag('a', '#000000').value;
    first.addMember(tag.id, 's1');
    first.nameSession('s1', 'named');
    first.saveView({ id: null, name: 'v' }, { ...LENS, filter: 'api', order: 'NAME' }, first.get().seq);
    const before = first.get();
    const again = open();
    expect(again.get()).toEqual(before);
    expect(again.createTag('b', '#000000').seq).toBe(before.seq + 1);
  });

  it('moves a file it cannot read aside, says so in one line, and starts empty past any seq a client held', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const old = open();
    old.createTag('a', '#000000');
    writeFileSync(join(dir, 'views.json'), '{"seq": "not a number"');
    vi.setSystemTime(Date.now() + 60_000); // a restart later: the new store's seq comes from the clock
    const store = open();
    vi.useRealTimers();
    expect(store.get()).toMatchObject({ tags: [], views: [], sessionNames: {} });
    expect(store.get().seq).toBeGreaterThan(old.get().seq);
    expect(logged).toEqual([expect.stringMatching(/views\.json is not a views file Loom can read; moved to .*corrupt.*, and tags and views start empty$/)]);
    expect(readdirSync(dir).some((name) => name.startsWith('views.json.corrupt-'))).toBe(true);
  });

  it('writes the file atomically with the seq it acknowledged', () => {
    const store = open();
    const { seq } = store.createTag('a', '#000000');
    expect(JSON.parse(readFileSync(join(dir, 'views.json'), 'utf8')).seq).toBe(seq);
  });
});
