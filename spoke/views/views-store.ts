import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import * as z from 'zod';
import { Pulse } from '../model/pulse';
import { BadInputError, ConflictError, NotFoundError } from '../model/source';
import type { Lens, Tag, View, Views } from '../model/views';
import { moveAside, readFileIfPresent, writeFileAtomic } from '../store/atomic-file';

// This kernel's tags and views, in `<state>/views.json`. Every accepted write makes `seq` one
// more. Targeted edits (a tag created, renamed, recoloured, deleted, a member added, removed or
// moved, a session named) read the store as it is and merge: they are never refused for being
// stale, only for what they ask (a name taken, the cap, a tag that is gone). A whole write (the
// tags' order, a saved view) names the seq it was made from and is refused with CONFLICT when the
// store has moved on since, so it never undoes an edit it did not see.

export const MAX_TAGS = 32;
const MAX_NAME = 64;
const MAX_SESSION_NAME = 200;
const MAX_VIEWS = 100;
const MAX_FILTER = 500;

const TagSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1).max(MAX_NAME),
  color: z.string().regex(/^#[0-9a-f]{6}$/),
  members: z.array(z.string()),
});
const ViewSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1).max(MAX_NAME),
  filter: z.string().max(MAX_FILTER),
  tagIds: z.array(z.string()),
  untagged: z.boolean(),
  order: z.enum(['RECENT', 'NAME', 'PROJECT']),
});
const ViewsFile = z.object({
  seq: z.number().int().min(0),
  tags: z.array(TagSchema).max(MAX_TAGS),
  views: z.array(ViewSchema).max(MAX_VIEWS),
  sessionNames: z.record(z.string(), z.string().max(MAX_SESSION_NAME)),
});

/**
 * A store started from nothing (none yet, or one that could not be read) begins at the seconds
 * since 2020: past any seq a client can hold from an earlier one, so a whole write made from that
 * is refused rather than applied to a different store. It fits GraphQL's Int until 2088.
 */
const freshSeq = (): number => Math.floor((Date.now() - Date.UTC(2020, 0, 1)) / 1000);
const empty = (): Views => ({ seq: freshSeq(), tags: [], views: [], sessionNames: {} });

/** What a write answers: the seq it produced, what it made or changed, and the store as it left it. */
export interface Written<T> {
  seq: number;
  value: T;
  views: Views;
}

export class ViewsStore {
  private readonly path: string;
  private views: Views;
  private readonly pulses = new Set<Pulse>();

  constructor(
    stateDir: string,
    private readonly options: {
      log?: (message: string) => void;
      /** a session's Loom name changed: its summary did too (sessionsChanged tells the pages listing it) */
      renamed?: (sessionKey: string) => void;
    } = {},
  ) {
    this.path = join(stateDir, 'views.json');
    this.views = this.read();
  }

  /** The store as it is now (a copy: callers never hold the live one). */
  get(): Views {
    return structuredClone(this.views);
  }

  /** The store now, then again after each write (writes while the reader is busy collapse into one). */
  follow(): AsyncIterableIterator<Views> {
    const pulse = new Pulse(() => this.pulses.delete(pulse));
    this.pulses.add(pulse);
    pulse.notify();
    // not a generator: ending it must not wait for the next write
    const views: AsyncIterableIterator<Views> = {
      next: async () => ((await pulse.next()).done ? { value: undefined, done: true } : { value: this.get(), done: false }),
      return: async () => {
        pulse.close();
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]: () => views,
    };
    return views;
  }

  createTag(name: string, color: string): Written<Tag> {
    const tag: Tag = { id: randomUUID().slice(0, 8), name: this.freeName(name, null), color: colorOf(color), members: [] };
    if (this.views.tags.length >= MAX_TAGS) throw new ConflictError(`a kernel keeps at most ${MAX_TAGS} tags; delete one first`);
    return this.write((v) => {
      v.tags.push(tag);
      return tag;
    });
  }

  renameTag(id: string, name: string): Written<Tag> {
    const taken = this.freeName(name, id);
    return this.write((v) => Object.assign(tagIn(v, id), { name: taken }));
  }

  recolorTag(id: string, color: string): Written<Tag> {
    const hex = colorOf(color);
    return this.write((v) => Object.assign(tagIn(v, id), { color: hex }));
  }

  deleteTag(id: string): Written<string> {
    return this.write((v) => {
      tagIn(v, id);
      v.tags = v.tags.filter((t) => t.id !== id);
      for (const view of v.views) view.tagIds = view.tagIds.filter((t) => t !== id);
      return id;
    });
  }

  addMember(tagId: string, sessionKey: string): Written<Tag> {
    return this.write((v) => join1(tagIn(v, tagId), sessionKey));
  }

  removeMember(tagId: string, sessionKey: string): Written<Tag> {
    return this.write((v) => leave(tagIn(v, tagId), sessionKey));
  }

  /** Moves a session from one tag to another in one write: it joins `toTagId` and leaves `fromTagId`. */
  moveMember(sessionKey: string, fromTagId: string, toTagId: string): Written<Tag[]> {
    return this.write((v) => {
      const [from, to] = [tagIn(v, fromTagId), tagIn(v, toTagId)];
      return from === to ? [to] : [leave(from, sessionKey), join1(to, sessionKey)];
    });
  }

  /** Names a session in Loom; an empty name gives it back its own. */
  nameSession(sessionKey: string, name: string): Written<string | null> {
    const trimmed = name.trim();
    if (trimmed.length > MAX_SESSION_NAME) throw new BadInputError(`a session's name is at most ${MAX_SESSION_NAME} characters`);
    const written = this.write((v) => {
      if (trimmed === '') delete v.sessionNames[sessionKey];
      else v.sessionNames[sessionKey] = trimmed;
      return trimmed === '' ? null : trimmed;
    });
    this.options.renamed?.(sessionKey);
    return written;
  }

  /** The tags' order, written whole: every tag id once. CONFLICT when the store moved on since `expectedSeq`. */
  setTagOrder(order: string[], expectedSeq: number): Written<Tag[]> {
    this.expect(expectedSeq);
    const known = new Set(this.views.tags.map((t) => t.id));
    if (order.length !== known.size || new Set(order).size !== order.length || !order.every((id) => known.has(id))) {
      throw new BadInputError("an order names every one of the host's tags, once each");
    }
    return this.write((v) => {
      v.tags = order.map((id) => tagIn(v, id));
      return v.tags;
    });
  }

  /** Saves a view whole, new (no id) or replacing one. CONFLICT when the store moved on since `expectedSeq`. */
  saveView(view: { id: string | null; name: string }, lens: Lens, expectedSeq: number): Written<View> {
    this.expect(expectedSeq);
    const name = view.name.trim();
    if (name === '' || name.length > MAX_NAME) throw new BadInputError(`a view's name is 1 to ${MAX_NAME} characters`);
    if (lens.filter.length > MAX_FILTER) throw new BadInputError(`a view's filter is at most ${MAX_FILTER} characters`);
    const known = new Set(this.views.tags.map((t) => t.id));
    const unknown = lens.tagIds.find((id) => !known.has(id));
    if (unknown !== undefined) throw new NotFoundError(`no tag "${unknown}" on this host`);
    if (view.id !== null && !this.views.views.some((w) => w.id === view.id)) throw new NotFoundError(`no view "${view.id}" on this host`);
    if (view.id === null && this.views.views.length >= MAX_VIEWS) throw new ConflictError(`a kernel keeps at most ${MAX_VIEWS} views; delete one first`);
    const saved: View = { id: view.id ?? randomUUID().slice(0, 8), name, ...lens, tagIds: [...new Set(lens.tagIds)] };
    return this.write((v) => {
      const at = v.views.findIndex((w) => w.id === saved.id);
      if (at === -1) v.views.push(saved);
      else v.views[at] = saved;
      return saved;
    });
  }

  deleteView(id: string): Written<string> {
    return this.write((v) => {
      if (!v.views.some((w) => w.id === id)) throw new NotFoundError(`no view "${id}" on this host`);
      v.views = v.views.filter((w) => w.id !== id);
      return id;
    });
  }

  private expect(expectedSeq: number): void {
    if (expectedSeq !== this.views.seq) {
      throw new ConflictError(`the tags and views changed since seq ${expectedSeq} (now ${this.views.seq}): read them again and redo this`);
    }
  }

  /** A name no other tag has (names compare without case or surrounding space). */
  private freeName(name: string, self: string | null): string {
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > MAX_NAME) throw new BadInputError(`a tag's name is 1 to ${MAX_NAME} characters`);
    const other = this.views.tags.find((t) => t.id !== self && t.name.toLowerCase() === trimmed.toLowerCase());
    if (other) throw new ConflictError(`a tag named "${other.name}" exists on this host`);
    return trimmed;
  }

  /** Applies a change to a copy, writes it with the next seq, then keeps it: a failed write changes nothing. */
  private write<T>(change: (views: Views) => T): Written<T> {
    const next = structuredClone(this.views);
    const value = change(next);
    next.seq = this.views.seq + 1;
    writeFileAtomic(this.path, `${JSON.stringify(next, null, 2)}\n`);
    this.views = next;
    for (const pulse of this.pulses) pulse.notify();
    return { seq: next.seq, value: structuredClone(value), views: this.get() };
  }

  private read(): Views {
    const text = readFileIfPresent(this.path);
    if (text === null) return empty();
    try {
      return ViewsFile.parse(JSON.parse(text));
    } catch {
      const aside = moveAside(this.path);
      this.options.log?.(`${this.path} is not a views file Loom can read; moved to ${aside}, and tags and views start empty`);
      return empty();
    }
  }
}

function tagIn(views: Views, id: string): Tag {
  const tag = views.tags.find((t) => t.id === id);
  if (!tag) throw new NotFoundError(`no tag "${id}" on this host`);
  return tag;
}

function join1(tag: Tag, sessionKey: string): Tag {
  if (!tag.members.includes(sessionKey)) tag.members.push(sessionKey);
  return tag;
}

function leave(tag: Tag, sessionKey: string): Tag {
  tag.members = tag.members.filter((m) => m !== sessionKey);
  return tag;
}

function colorOf(color: string): string {
  const hex = color.trim().toLowerCase();
  if (!/^#[0-9a-f]{6}$/.test(hex)) throw new BadInputError(`a tag's colour is "#rrggbb", got "${color}"`);
  return hex;
}
