import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, type ResultOf } from '../../web/src/lib/graphql';
import { FIXTURES, startTestKernel, type TestKernel } from '../helpers/kernel';

// transcript pages and events over the real fixtures.

let kernel: TestKernel;
beforeAll(async () => {
  kernel = await startTestKernel(FIXTURES);
});
afterAll(() => kernel.close());

const LARGEST = 'test:ae4a77f8-aedd-4bc1-888f-c94edc91af04';

async function pathOf(id: string): Promise<{ uuid: string; sequence: number; type: string; t: string }[]> {
  const { data } = await kernel.gql(graphql(`query($id: ID!) { session(id: $id) { turns { id atoms { uuid sequence type t } } } }`), { id });
  return data.session!.turns.flatMap((t) => t.atoms);
}

describe('transcript pages', () => {
  it('walks backwards through the largest fixture session, every atom exactly once, in order', async () => {
    const expected = await pathOf(LARGEST);
    expect(expected.length).toBeGreaterThan(600);
    const PAGE = graphql(`query($id: ID!, $before: Int) { transcript(sessionId: $id, limit: 97, beforeSequence: $before) {
          entries { uuid sequence } epoch generation maxSequence hasOlder nextBeforeSequence } }`);
    const pages: ResultOf<typeof PAGE>['transcript'][] = [];
    let before: number | null = null;
    for (;;) {
      const { data }: { data: ResultOf<typeof PAGE> } = await kernel.gql(PAGE, { id: LARGEST, before });
      pages.push(data.transcript);
      if (!data.transcript.hasOlder) break;
      before = data.transcript.nextBeforeSequence;
    }
    const seen = pages.reverse().flatMap((p) => p.entries);
    expect(seen.map((a) => a.uuid)).toEqual(expected.map((a) => a.uuid));
    expect(seen.map((a) => a.sequence)).toEqual(expected.map((_, i) => i + 1));
    expect(pages.every((p) => p.maxSequence === expected.length && p.epoch === 0 && p.generation === 0)).toBe(true);
    expect(pages[0].entries).toHaveLength(expected.length % 97 || 97);
  });
});

describe('events', () => {
  it('returns the newest matches of a type, oldest first, and narrows by turn, time and sequence', async () => {
    const path = await pathOf(LARGEST);
    const assistants = path.filter((a) => a.type === 'ASSISTANT');
    const last5 = await kernel.gql(graphql(`query($id: ID!) { events(sessionId: $id, type: ASSISTANT, limit: 5) { uuid sequence type } }`), { id: LARGEST });
    expect(last5.data.events.map((a) => a.uuid)).toEqual(assistants.slice(-5).map((a) => a.uuid));

    const { data } = await kernel.gql(graphql(`query($id: ID!) { session(id: $id) { turns { id atoms { uuid } } } }`), { id: LARGEST });
    const turn = data.session!.turns[1];
    const inTurn = await kernel.gql(graphql(`query($id: ID!, $turn: ID!) { events(sessionId: $id, turnId: $turn, limit: 1000) { uuid } }`), {
      id: LARGEST,
      turn: turn.id,
    });
    expect(inTurn.data.events.map((a) => a.uuid)).toEqual(turn.atoms.map((a) => a.uuid));

    const pivot = path[500];
    const since = await kernel.gql(graphql(`query($id: ID!, $since: String) { events(sessionId: $id, since: $since, limit: 1000) { uuid t } }`), {
      id: LARGEST,
      since: pivot.t,
    });
    expect(since.data.events.every((a) => a.t >= pivot.t)).toBe(true);
    expect(since.data.events.map((a) => a.uuid)).toEqual(path.filter((a) => a.t >= pivot.t).map((a) => a.uuid));

    const after = await kernel.gql(graphql(`query($id: ID!) { events(sessionId: $id, afterSequence: 640, limit: 1000) { sequence } }`), { id: LARGEST });
    expect(after.data.events.map((a) => a.sequence)).toEqual(path.slice(640).map((a) => a.sequence));
  });

  it('answers bad arguments with a code and a message saying what is wrong', async () => {
    const cases: [string, string, RegExp][] = [
      [`{ transcript(sessionId: "${LARGEST}", limit: 0) { maxSequence } }`, 'BAD_USER_INPUT', /"limit" must be a whole number from 1 to 1000, got 0/],
      [`{ transcript(sessionId: "${LARGEST}", limit: 5000) { maxSequence } }`, 'BAD_USER_INPUT', /got 5000/],
      [`{ events(sessionId: "${LARGEST}", limit: 5000) { uuid } }`, 'BAD_USER_INPUT', /got 5000/],
      [`{ events(sessionId: "${LARGEST}", since: "yesterday") { uuid } }`, 'BAD_USER_INPUT', /"since" must be an RFC 3339 time/],
      [`{ events(sessionId: "${LARGEST}", turnId: "other:x:y") { uuid } }`, 'BAD_USER_INPUT', /"turnId" must be a turn id of/],
      [`{ transcript(sessionId: "test:no-such-session") { maxSequence } }`, 'NOT_FOUND', /no session test:no-such-session/],
      [`{ events(sessionId: "test:no-such-session") { uuid } }`, 'NOT_FOUND', /no session/],
    ];
    for (const [query, code, message] of cases) {
      const { errors } = await kernel.gql(query);
      expect(errors?.[0], query).toMatchObject({ extensions: { code }, message: expect.stringMatching(message) });
    }
  });
});
