import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATOM, SESSION_STREAM, TRANSCRIPT_PAGE, WHOLE_ATOM } from '../../web/src/chat/queries';
import { graphql, readFragment } from '../../web/src/lib/graphql';
import { iterate, startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, line, prompt, say, screenshot, toolResult } from '../helpers/records';

// Blocks of megabytes over real HTTP: each text field takes maxChars and gives its length, a tool
// call's input cuts its strings, and atom(id) reads a block again whole. The dashboard asks for
// 4,000 characters (web/src/chat/queries.ts).

const MiB = 2 ** 20;
const HUGE = `${'0123456789abcdef'.repeat(MiB / 16 - 1)}THE END OF IT...`;
// four characters, six UTF-16 units: an emoji is one character, as the API counts them
const EMOJI = 'a😀b😀';
// a 1 MiB picture: base64 of 3 MiB less two bytes, so its text ends in one '='
const PICTURE = Buffer.alloc(MiB - 2, 7).toString('base64');

let root: string;
let kernel: TestKernel;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loom-long-blocks-'));
  mkdirSync(join(root, '-home-dev-demo'));
  const write = (name: string, records: unknown[]) => writeFileSync(join(root, '-home-dev-demo', `${name}.jsonl`), records.map(line).join(''));
  const huge = HUGE.repeat(10);
  write('huge', [
    prompt('p1', null, huge),
    assistant('a1', 'p1', [{ type: 'thinking', thinking: huge, signature: 'sig' }]),
    assistant(
      'a2',
      'a1',
      [{ type: 'tool_use', id: 't1', name: 'Write', input: { file_path: '/tmp/out.txt', content: huge, lines: [EMOJI, 'short'] } }],
      'tool_use',
    ),
    toolResult('r1', 'a2', 't1', [
      { type: 'text', text: huge },
      { type: 'text', text: 'written' },
    ]),
    assistant('a3', 'r1', [say(EMOJI)], 'end_turn'),
  ]);
  write('pictures', [
    prompt('i1', null, 'take a screenshot'),
    assistant('i2', 'i1', [{ type: 'tool_use', id: 'shot', name: 'Screenshot', input: {} }], 'tool_use'),
    toolResult('i3', 'i2', 'shot', screenshot(PICTURE)),
    assistant('i4', 'i3', [say('Done.')], 'end_turn'),
  ]);
  write('rewound', [
    prompt('q1', null, 'start the report'),
    assistant('b1', 'q1', [say('Started.')], 'end_turn'),
    prompt('q2', 'b1', 'write it in French'),
    assistant('b2', 'q2', [say(huge)], 'end_turn'),
    prompt('q3', 'b1', 'write it in English'),
    assistant('b3', 'q3', [say('Writing it in English.')], 'end_turn'),
  ]);
  kernel = await startTestKernel(root);
});
afterAll(async () => {
  await kernel?.close();
  rmSync(root, { recursive: true, force: true });
});

const BLOCKS = graphql(`
  query LongBlocks($id: ID!, $max: Int) {
    transcript(sessionId: $id) {
      entries {
        id
        content {
          __typename
          ... on TextBlock { text(maxChars: $max) length }
          ... on ThinkingBlock { thinking(maxChars: $max) length }
          ... on ToolUseBlock { input(maxChars: $max) longestString }
          ... on ToolResultBlock { text(maxChars: $max) length }
        }
      }
    }
  }
`);

/** the blocks of the session `huge` with maxChars, as one list */
async function blocks(max: number | null) {
  const { data, errors } = await kernel.gql(BLOCKS, { id: 'test:huge', max });
  expect(errors).toBeUndefined();
  return data.transcript.entries.flatMap((e) => e.content);
}

describe('maxChars and length', () => {
  it('gives a text, thinking and tool result block only their first maxChars characters, and the length of the whole', async () => {
    const [text, thinking, , result, short] = await blocks(100);
    expect(text).toEqual({ __typename: 'TextBlock', text: HUGE.slice(0, 100), length: 10 * MiB });
    expect(thinking).toEqual({ __typename: 'ThinkingBlock', thinking: HUGE.slice(0, 100), length: 10 * MiB });
    // a result's text parts are joined with a newline
    expect(result).toEqual({ __typename: 'ToolResultBlock', text: HUGE.slice(0, 100), length: 10 * MiB + '\nwritten'.length });
    expect(short).toEqual({ __typename: 'TextBlock', text: EMOJI, length: 4 });
  });

  it('counts characters, not UTF-16 units: an emoji is never cut in two', async () => {
    const short = (await blocks(2)).at(-1);
    expect(short).toEqual({ __typename: 'TextBlock', text: 'a😀', length: 4 });
  });

  it("cuts each string of a tool call's input and keeps its shape; longestString says how long the longest is", async () => {
    const [, , call] = await blocks(2);
    expect(call).toEqual({
      __typename: 'ToolUseBlock',
      input: { file_path: '/t', content: '01', lines: ['a😀', 'sh'] },
      longestString: 10 * MiB,
    });
    const input = graphql(`query Input($id: ID!, $max: Int) { atom(id: $id) { content { ... on ToolUseBlock { input(maxChars: $max) } } } }`);
    const { data } = await kernel.gql(input, { id: 'test:huge:a2', max: 10 * MiB });
    expect(data.atom?.content).toEqual([{ input: { file_path: '/tmp/out.txt', content: HUGE.repeat(10), lines: [EMOJI, 'short'] } }]);
  });

  it('sends only the prefix: a page of 10 MiB blocks as the dashboard asks for it is a few kilobytes', async () => {
    const res = await kernel.fetch('graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: print(TRANSCRIPT_PAGE), variables: { id: 'test:huge' } }),
    });
    const body = await res.text();
    expect(body.length).toBeLessThan(30_000);
    expect(body).not.toContain('THE END OF IT');
  });

  it("sends the dashboard's session stream the prefix too", async () => {
    const frames = iterate(kernel.ws(), SESSION_STREAM, { id: 'test:huge' });
    const { value } = await frames.next();
    await frames.return?.();
    const atoms = readFragment(ATOM, value?.data?.sessionStream.atoms ?? []);
    const first = atoms[0]?.content[0];
    expect(first?.__typename === 'TextBlock' && [first.text.length, first.length]).toEqual([4000, 10 * MiB]);
  });

  it("cuts each string of a tool result's raw content, keeping its shape", async () => {
    const content = graphql(`query Content($id: ID!, $max: Int) { atom(id: $id) { content { ... on ToolResultBlock { content(maxChars: $max) } } } }`);
    const { data } = await kernel.gql(content, { id: 'test:huge:r1', max: 4 });
    expect(data.atom?.content).toEqual([
      {
        content: [
          { type: 'text', text: '0123' },
          { type: 'text', text: 'writ' },
        ],
      },
    ]);
  });

  it("says an image's size without its bytes, and the dashboard's page carries no image data", async () => {
    const sizes = graphql(`query Sizes($id: ID!) { atom(id: $id) { content { ... on ToolResultBlock { images { mediaType bytes } } } } }`);
    const { data } = await kernel.gql(sizes, { id: 'test:pictures:i3' });
    expect(data.atom?.content).toEqual([{ images: [{ mediaType: 'image/png', bytes: MiB - 2 }] }]);
    const res = await kernel.fetch('graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: print(TRANSCRIPT_PAGE), variables: { id: 'test:pictures' } }),
    });
    const body = await res.text();
    expect(body).toContain(`"bytes":${MiB - 2}`);
    expect(body.length).toBeLessThan(10_000);
  });

  it('refuses a negative maxChars with BAD_USER_INPUT', async () => {
    const { errors } = await kernel.gql(BLOCKS, { id: 'test:huge', max: -1 });
    expect(errors?.[0]).toMatchObject({ message: '"maxChars" must be 0 or more, got -1', extensions: { code: 'BAD_USER_INPUT' } });
  });
});

describe('atom(id)', () => {
  it('reads a block again whole, as "show all" asks for it', async () => {
    const { data } = await kernel.gql(WHOLE_ATOM, { id: 'test:huge:p1' });
    expect(data.atom?.content).toEqual([{ __typename: 'TextBlock', text: HUGE.repeat(10) }]);
  });

  it('finds an atom a rewind took off the path', async () => {
    const { data } = await kernel.gql(graphql(`query Rewound($id: ID!) { atom(id: $id) { id sequence rewound content { ... on TextBlock { length } } } }`), {
      id: 'test:rewound:b2',
    });
    expect(data.atom).toEqual({ id: 'test:rewound:b2', sequence: 0, rewound: true, content: [{ length: 10 * MiB }] });
  });

  it("answers null for an atom or session the kernel does not hold, and refuses an id that is not an atom's", async () => {
    const { data } = await kernel.gql(WHOLE_ATOM, { id: 'test:huge:no-such-uuid' });
    expect(data.atom).toBeNull();
    expect((await kernel.gql(WHOLE_ATOM, { id: 'test:no-such-session:p1' })).data.atom).toBeNull();
    const { errors } = await kernel.gql(WHOLE_ATOM, { id: 'test:huge' });
    expect(errors?.[0]).toMatchObject({
      message: '"test:huge" is not an atom id; atom ids look like "host:sessionKey:atomUuid"',
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });
});
