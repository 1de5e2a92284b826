import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { graphql, type ResultOf, type TadaDocumentNode } from '../../web/src/lib/graphql';
import { iterate, startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, line, prompt, say, toolResult, toolUse } from '../helpers/records';
import { sleep, until } from '../helpers/wait';

// A real kernel following a real file as it grows, observed over real graphql-ws subscriptions.

let root: string;
let file: string;
let kernel: TestKernel;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'loom-live-'));
  mkdirSync(join(root, '-home-dev-demo'));
  file = join(root, '-home-dev-demo', 'live.jsonl');
  writeFileSync(file, line(prompt('u0', null, 'start the job')));
  kernel = await startTestKernel(root, { awakeLimit: 1 });
});
afterEach(async () => {
  await kernel.close();
  rmSync(root, { recursive: true, force: true });
});

const STREAM = graphql(`subscription($id: ID!, $cursor: Int, $epoch: Int, $generation: Int) {
  sessionStream(sessionId: $id, cursor: $cursor, epoch: $epoch, generation: $generation) {
    kind reset reason cursor epoch generation atoms { uuid sequence content { ... on TextBlock { text } } } } }`);

interface Fence {
  cursor: number;
  epoch?: number;
  generation?: number;
}

/** Collects every frame of a sessionStream subscription. */
function subscribe(fence: Fence | null = null) {
  const frames: ResultOf<typeof STREAM>['sessionStream'][] = [];
  let failure: unknown = null;
  const iterator = iterate(kernel.ws(), STREAM, { id: 'test:live', ...fence });
  const done = (async () => {
    for await (const result of iterator) {
      if (result.errors) throw new Error(JSON.stringify(result.errors));
      frames.push(result.data!.sessionStream);
    }
  })().catch((err) => (failure = err));
  // A stream that failed fails the test at once, with the server's error, instead of timing out.
  const atoms = () => {
    if (failure) throw failure;
    return frames.flatMap((f) => f.atoms);
  };
  return { frames, atoms, stop: () => iterator.return?.(), done };
}

/** 120 chained records whose text carries multi-byte characters. */
function conversation(count: number): { bytes: Buffer; uuids: string[] } {
  const uuids: string[] = [];
  let parent = 'u0';
  let text = '';
  for (let i = 1; i <= count; i++) {
    const uuid = `x${i}`;
    const record =
      i % 3 === 1
        ? assistant(uuid, parent, [say(`step ${i}: naïve café — ✓ 日本語 🚀`), toolUse(`t${i}`)], 'tool_use')
        : i % 3 === 2
          ? toolResult(uuid, parent, `t${i - 1}`)
          : assistant(uuid, parent, [say(`reply ${i} ✓`)]);
    text += line(record);
    uuids.push(uuid);
    parent = uuid;
  }
  return { bytes: Buffer.from(text), uuids };
}

/**
 * Follows sessionsChanged. No acknowledgement exists for a subscription: new sessions are written
 * until one is announced, so what the test writes next is heard.
 */
async function followSessions<Change extends { kind: string }>(document: TadaDocumentNode<{ sessionsChanged: Change }, Record<never, never>>) {
  const changes: Change[] = [];
  const iterator = iterate(kernel.ws(), document);
  const consume = (async () => {
    for await (const r of iterator) changes.push(r.data!.sessionsChanged);
  })();
  let n = 0;
  await until(() => {
    writeFileSync(join(root, '-home-dev-demo', `new${++n}.jsonl`), line(prompt(`n${n}`, null, `new session ${n}`)));
    return changes.some((c) => c.kind === 'ADDED');
  }, 'an ADDED change');
  return { changes, end: () => iterator.return?.().then(() => consume) };
}

describe('following a growing transcript', () => {
  it('delivers every atom exactly once, in order, through 200 small appends that split lines and characters', async () => {
    const stream = subscribe();
    await until(() => stream.frames.length > 0, 'the snapshot');
    const { bytes, uuids } = conversation(120);
    // Cut points: 199 positions spread over the bytes; every fifth moved inside a multi-byte character.
    const cuts = Array.from({ length: 199 }, (_, i) => {
      let cut = Math.floor(((i + 1) * bytes.length) / 200);
      if (i % 5 === 0) while ((bytes[cut] & 0xc0) !== 0x80) cut++;
      return cut;
    });
    expect(cuts.every((c, i) => i === 0 || c > cuts[i - 1])).toBe(true);
    expect(cuts.some((c) => (bytes[c] & 0xc0) === 0x80)).toBe(true);
    let from = 0;
    for (const [i, cut] of [...cuts, bytes.length].entries()) {
      appendFileSync(file, bytes.subarray(from, cut));
      from = cut;
      if (i % 10 === 0) await sleep(5);
    }
    await until(() => stream.atoms().length >= 121, 'all 121 atoms');
    await sleep(300); // anything delivered twice would arrive now
    const atoms = stream.atoms();
    expect(atoms.map((a) => a.uuid)).toEqual(['u0', ...uuids]);
    expect(atoms.map((a) => a.sequence)).toEqual(atoms.map((_: unknown, i: number) => i + 1));
    expect(atoms[1].content[0]).toEqual({ text: 'step 1: naïve café — ✓ 日本語 🚀' });
    expect(stream.frames.every((f) => !f.reset)).toBe(true);
    await stream.stop();
  });

  it('resumes from a cursor and its fences with only the atoms after it', async () => {
    appendFileSync(file, conversation(6).bytes);
    await until(async () => (await kernel.gql(graphql(`{ session(id: "test:live") { atomCount } }`))).data.session?.atomCount === 7, '7 atoms');
    const stream = subscribe({ cursor: 4, epoch: 0, generation: 0 });
    await until(() => stream.frames.length > 0, 'the first frame');
    expect(stream.frames[0]).toMatchObject({ kind: 'SNAPSHOT', reset: false, cursor: 7 });
    expect(stream.atoms().map((a) => a.sequence)).toEqual([5, 6, 7]);
    await stream.stop();
  });

  it('answers a cursor without fences, a stale epoch or a cursor past the end with a reset snapshot naming why', async () => {
    appendFileSync(file, conversation(3).bytes);
    await until(async () => (await kernel.gql(graphql(`{ session(id: "test:live") { atomCount } }`))).data.session?.atomCount === 4, '4 atoms');
    for (const [fence, reason] of [
      [{ cursor: 2 }, 'FENCE_MISSING'],
      [{ cursor: 2, epoch: 5, generation: 0 }, 'EPOCH_MISMATCH'],
      [{ cursor: 2, epoch: 0, generation: 3 }, 'GENERATION_MISMATCH'],
      [{ cursor: 99, epoch: 0, generation: 0 }, 'SEQUENCE_RESET'],
    ] as const) {
      const stream = subscribe(fence);
      await until(() => stream.frames.length > 0, `the first frame for ${reason}`);
      expect(stream.frames[0]).toMatchObject({ kind: 'SNAPSHOT', reset: true, reason, cursor: 4, epoch: 0, generation: 0 });
      expect(stream.atoms().map((a) => a.sequence)).toEqual([1, 2, 3, 4]);
      await stream.stop();
    }
  });

  it('resumes a dropped stream with exactly the atoms appended meanwhile', async () => {
    const first = subscribe();
    appendFileSync(file, conversation(4).bytes);
    await until(() => first.atoms().length === 5, 'the first 5 atoms');
    const last = first.frames[first.frames.length - 1];
    await first.stop(); // the connection drops here
    const more = conversation(9).bytes.subarray(conversation(4).bytes.length);
    appendFileSync(file, more);
    await until(async () => (await kernel.gql(graphql(`{ session(id: "test:live") { atomCount } }`))).data.session?.atomCount === 10, '10 atoms');
    const resumed = subscribe({ cursor: last.cursor, epoch: last.epoch, generation: last.generation });
    await until(() => resumed.atoms().length === 5, 'the 5 atoms appended meanwhile');
    await sleep(200);
    expect(resumed.frames[0]).toMatchObject({ kind: 'SNAPSHOT', reset: false });
    expect(resumed.atoms().map((a) => a.sequence)).toEqual([6, 7, 8, 9, 10]);
    await resumed.stop();
  });

  it('sends a reset when a rewind starts a new branch from an earlier line', async () => {
    appendFileSync(file, conversation(4).bytes);
    const stream = subscribe();
    await until(() => stream.atoms().length === 5, 'all 5 atoms').catch((err) => {
      throw new Error(`${err.message}; frames: ${JSON.stringify(stream.frames.map((f) => [f.kind, f.cursor, f.atoms.map((a) => a.uuid)]))}`);
    });
    // The user rewound to x1 and asked again: a new branch from an earlier uuid.
    appendFileSync(file, line(prompt('retry', 'x1', 'try that differently')));
    const reset = await until(() => stream.frames.find((f) => f.reset), 'a reset frame');
    expect(reset).toMatchObject({ kind: 'SNAPSHOT', reason: 'GENERATION_MISMATCH', generation: 1 });
    expect(reset.atoms.map((a) => a.uuid)).toEqual(['u0', 'x1', 'retry']);
    await stream.stop();
  });

  it('keeps serving after a garbage line and reports it as a ParseError', async () => {
    appendFileSync(file, 'this is {not json\n');
    appendFileSync(file, line(assistant('a1', 'u0', [say('still here')], 'end_turn')));
    const session = await until(async () => {
      const { data } = await kernel.gql(graphql(`{ session(id: "test:live") { atomCount parseErrors { line offset reason } } }`));
      return data.session?.atomCount === 2 ? data.session : null;
    }, 'the line after the garbage');
    expect(session.parseErrors).toEqual([expect.objectContaining({ line: 2, reason: expect.stringMatching(/not JSON/) })]);
  });

  it('reads a truncated file again and tells streaming clients to reset', async () => {
    appendFileSync(file, conversation(6).bytes);
    const stream = subscribe();
    await until(() => stream.atoms().length === 7, 'all 7 atoms').catch((err) => {
      throw new Error(
        `${err.message}; frames: ${JSON.stringify(stream.frames.map((f) => [f.kind, f.cursor, f.atoms.length]))}; logs: ${kernel.logs.join(' | ')}`,
      );
    });
    truncateSync(file, line(prompt('u0', null, 'start the job')).length);
    const reset = await until(() => stream.frames.find((f) => f.reset), 'a reset frame');
    expect(reset).toMatchObject({ kind: 'SNAPSHOT', reason: 'GENERATION_MISMATCH', cursor: 1 });
    expect(reset.atoms.map((a) => a.uuid)).toEqual(['u0']);
    const { data } = await kernel.gql(graphql(`{ session(id: "test:live") { atomCount files { rereads } } }`));
    expect(data.session).toEqual({ atomCount: 1, files: [{ rereads: 1 }] });
    await stream.stop();
  });

  it('reads a file replaced by another from the start', async () => {
    const other = join(root, 'replacement.tmp');
    writeFileSync(other, line(prompt('n0', null, 'a different session')) + line(assistant('n1', 'n0', [say('fresh')], 'end_turn')));
    renameSync(other, file);
    const session = await until(async () => {
      const { data } = await kernel.gql(graphql(`{ session(id: "test:live") { name atomCount files { rereads } } }`));
      return data.session?.name === 'a different session' ? data.session : null;
    }, 'the replaced content');
    expect(session).toEqual({ name: 'a different session', atomCount: 2, files: [{ rereads: 1 }] });
  });

  it('announces a new session file, and its deletion, on sessionsChanged', async () => {
    const { changes, end } = await followSessions(graphql(`subscription { sessionsChanged { kind sessionId session { name } } }`));
    const added = changes.find((c) => c.kind === 'ADDED')!;
    expect(added.sessionId).toMatch(/^test:new\d+$/);
    expect(added.session!.name).toMatch(/^new session \d+$/);
    rmSync(join(root, '-home-dev-demo', `${added.sessionId.slice('test:'.length)}.jsonl`));
    await until(() => changes.some((c) => c.kind === 'REMOVED' && c.sessionId === added.sessionId), 'a REMOVED change');
    await end();
  });

  it("tells a subagent's session again, with its parent, when the parent's first line comes after the subagent's", async () => {
    const { changes, end } = await followSessions(graphql(`subscription { sessionsChanged { kind sessionId session { parent { id } } } }`));
    const of = (id: string) => changes.filter((c) => c.sessionId === id).map((c) => [c.kind, c.session?.parent?.id ?? null]);
    mkdirSync(join(root, '-home-dev-demo', 'w3', 'subagents'), { recursive: true });
    const subagent = prompt('s1', null, 'the subagent task', { isSidechain: true, sessionId: 'w3', agentId: 's1' });
    writeFileSync(join(root, '-home-dev-demo', 'w3', 'subagents', 'agent-s1.jsonl'), line(subagent));
    await until(() => of('test:agent-s1').length > 0, 'the subagent announced');
    writeFileSync(join(root, '-home-dev-demo', 'w3.jsonl'), line(prompt('m1', null, 'a session that starts a subagent')));
    await until(() => of('test:agent-s1').length > 1, 'the subagent announced again');
    expect(of('test:agent-s1')).toEqual([
      ['ADDED', null],
      ['UPDATED', 'test:w3'],
    ]);
    expect(of('test:w3')).toEqual([['ADDED', null]]);
    await end();
  });

  it('catches a subscriber up with `since`: each session changed since then, as it is now, and none before, then what changes next', async () => {
    const SESSION = graphql(`query($id: ID!) { session(id: $id) { id } }`);
    const seen = (key: string) => until(async () => (await kernel.gql(SESSION, { id: `test:${key}` })).data.session, `the kernel seeing ${key}`);
    const old = join(root, '-home-dev-demo', 'old.jsonl');
    writeFileSync(old, line(prompt('o1', null, 'changed before')));
    await seen('old');
    await sleep(50);
    const since = new Date().toISOString();
    await sleep(50);
    writeFileSync(join(root, '-home-dev-demo', 'fresh.jsonl'), line(prompt('f1', null, 'changed after')));
    await seen('fresh');
    const follow = <Result, Variables, Event>(document: TadaDocumentNode<Result, Variables>, variables: Variables, event: (data: Result) => Event) => {
      const events: Event[] = [];
      const iterator = iterate(kernel.ws(), document, variables);
      const consume = (async () => {
        for await (const r of iterator) events.push(event(r.data!));
      })();
      return { events, end: () => iterator.return?.().then(() => consume) };
    };
    const sessions = follow(
      graphql(`subscription($since: DateTime) { sessionsChanged(since: $since) { kind sessionId session { name } } }`),
      { since },
      (data) => data.sessionsChanged,
    );
    const feed = follow(
      graphql(`subscription($since: DateTime) { feedChanged(since: $since) { sessionId goals { title } } }`),
      { since },
      (data) => data.feedChanged,
    );
    const everything = follow(graphql(`subscription { sessionsChanged(since: "2020-01-01T00:00:00Z") { sessionId } }`), {}, (data) => data.sessionsChanged);
    await until(() => sessions.events.length > 0 && feed.events.length > 0 && everything.events.length >= 3, 'the catch-up');
    await sleep(300);
    expect(sessions.events).toEqual([{ kind: 'UPDATED', sessionId: 'test:fresh', session: { name: 'changed after' } }]);
    expect(feed.events).toEqual([{ sessionId: 'test:fresh', goals: [expect.objectContaining({ title: expect.stringContaining('changed after') })] }]);
    // a time before the kernel started: it cannot tell what changed then, so every session
    expect(everything.events.map((e) => e.sessionId).toSorted()).toEqual(['test:fresh', 'test:live', 'test:old']);
    appendFileSync(old, line(prompt('o2', 'o1', 'and now changed again')));
    await until(() => sessions.events.some((e) => e.sessionId === 'test:old'), 'the next change, live');
    await Promise.all([sessions.end(), feed.end(), everything.end()]);
  });

  it("gives the sessions' version at once, and a higher one after each change", async () => {
    const versions: number[] = [];
    const iterator = iterate(kernel.ws(), graphql(`subscription { sessionsVersion }`));
    const consume = (async () => {
      for await (const r of iterator) versions.push(r.data!.sessionsVersion);
    })();
    await until(() => versions.length > 0, 'the version now, before any change');
    writeFileSync(join(root, '-home-dev-demo', 'versioned.jsonl'), line(prompt('v1', null, 'a change')));
    await until(() => versions.length > 1, 'a new version after the change');
    expect(versions[1]).toBeGreaterThan(versions[0]);
    rmSync(join(root, '-home-dev-demo', 'versioned.jsonl'));
    await until(() => versions.length > 2, 'a new version after the removal');
    expect(versions[2]).toBeGreaterThan(versions[1]);
    await iterator.return?.();
    await consume;
  });
});
