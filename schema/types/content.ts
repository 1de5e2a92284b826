import { GraphQLError } from 'graphql';
import type { ContentBlock } from '../../spoke/model/types';
import { builder } from '../builder';
import { countChars, firstChars } from '../characters';
import { cutStrings, longestString } from '../cut-strings';

// A block's text can be megabytes (a pasted log, a file a tool read): each text field takes
// `maxChars` and comes with its `length`, so a client can ask for a prefix and the rest on request.

type Block<T extends ContentBlock['type']> = Extract<ContentBlock, { type: T }>;

const MAX_CHARS = 'only its first maxChars characters (Unicode code points); the whole text when omitted';
const LENGTH = 'characters (Unicode code points) in the whole text, as maxChars counts them';

/** maxChars as given: null for no limit; a negative one is refused. */
function maxCharsOf(maxChars: number | null | undefined): number | null {
  if (maxChars != null && maxChars < 0) throw new GraphQLError(`"maxChars" must be 0 or more, got ${maxChars}`, { extensions: { code: 'BAD_USER_INPUT' } });
  return maxChars ?? null;
}

function prefix(text: string, maxChars: number | null | undefined): string {
  const max = maxCharsOf(maxChars);
  return max === null ? text : firstChars(text, max);
}

const CUT_STRINGS = 'every string in it cut to its first maxChars characters (Unicode code points); its shape stays';

function cutJson(value: unknown, maxChars: number | null | undefined): unknown {
  const max = maxCharsOf(maxChars);
  return max === null ? value : cutStrings(value, max);
}

/** Bytes a base64 text decodes to. */
function decodedBytes(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

const TextBlock = builder.objectRef<Block<'text'>>('TextBlock').implement({
  fields: (t) => ({
    text: t.string({ args: { maxChars: t.arg.int({ description: MAX_CHARS }) }, resolve: (b, { maxChars }) => prefix(b.text, maxChars) }),
    length: t.int({ description: LENGTH, resolve: (b) => countChars(b.text) }),
  }),
});

const ThinkingBlock = builder.objectRef<Block<'thinking'>>('ThinkingBlock').implement({
  fields: (t) => ({
    thinking: t.string({
      description: 'empty when the transcript kept only a signature',
      args: { maxChars: t.arg.int({ description: MAX_CHARS }) },
      resolve: (b, { maxChars }) => prefix(b.thinking, maxChars),
    }),
    length: t.int({ description: LENGTH, resolve: (b) => countChars(b.thinking) }),
  }),
});

const ToolUseBlock = builder.objectRef<Block<'tool_use'>>('ToolUseBlock').implement({
  fields: (t) => ({
    toolUseId: t.exposeString('id'),
    name: t.exposeString('name'),
    input: t.field({
      type: 'JSON',
      args: { maxChars: t.arg.int({ description: CUT_STRINGS }) },
      resolve: (b, { maxChars }) => cutJson(b.input, maxChars),
    }),
    longestString: t.int({
      description: 'characters in the longest string of the input: input(maxChars:) is the whole input when maxChars is at least this',
      resolve: (b) => longestString(b.input),
    }),
    cwd: t.exposeString('cwd', { nullable: true, description: "the session's working directory when the call was made, as its line records it" }),
  }),
});

const ImageBlock = builder.objectRef<Block<'image'>>('ImageBlock').implement({
  fields: (t) => ({
    mediaType: t.exposeString('mediaType', { nullable: true }),
    data: t.exposeString('data', { nullable: true, description: 'base64: ask for it only where the image is shown (it can be megabytes)' }),
    bytes: t.int({
      nullable: true,
      description: 'size of the image, decoded: known without sending `data`',
      resolve: (b) => (b.data === null ? null : decodedBytes(b.data)),
    }),
  }),
});

/** `subagent` is added beside Session (types/session.ts) */
export const ToolResultBlock = builder.objectRef<Block<'tool_result'>>('ToolResultBlock').implement({
  fields: (t) => ({
    toolUseId: t.exposeString('toolUseId', { description: 'the toolUseId of the ToolUseBlock this answers' }),
    toolName: t.exposeString('toolName', { nullable: true, description: 'name of the paired tool call, when it is on the path' }),
    isError: t.exposeBoolean('isError'),
    text: t.string({
      description: 'the text parts of the result, joined',
      args: { maxChars: t.arg.int({ description: MAX_CHARS }) },
      resolve: (b, { maxChars }) => prefix(resultText(b.content), maxChars),
    }),
    length: t.int({ description: LENGTH, resolve: (b) => countChars(resultText(b.content)) }),
    images: t.field({ type: [ImageBlock], description: 'the image parts of the result (a screenshot a tool returned)', resolve: (b) => b.images }),
    content: t.field({
      type: 'JSON',
      nullable: true,
      description: 'the result as the transcript holds it (text and image parts)',
      args: { maxChars: t.arg.int({ description: CUT_STRINGS }) },
      resolve: (b, { maxChars }) => cutJson(b.content, maxChars),
    }),
  }),
});

const OpaqueBlock = builder.objectRef<Block<'opaque'>>('OpaqueBlock').implement({
  description: 'A content block of a type Loom does not know yet, kept whole.',
  fields: (t) => ({
    blockType: t.exposeString('blockType'),
    raw: t.field({ type: 'JSON', args: { maxChars: t.arg.int({ description: CUT_STRINGS }) }, resolve: (b, { maxChars }) => cutJson(b.raw, maxChars) }),
  }),
});

const REFS = {
  text: TextBlock,
  thinking: ThinkingBlock,
  tool_use: ToolUseBlock,
  tool_result: ToolResultBlock,
  image: ImageBlock,
  opaque: OpaqueBlock,
} as const;

export const ContentBlockRef = builder.unionType('ContentBlock', {
  types: Object.values(REFS),
  resolveType: (block) => REFS[block.type],
});

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (part && typeof part === 'object' && 'text' in part && typeof part.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}
