import type { ContentBlock } from '../../spoke/model/types';
import { builder } from '../builder';

type Block<T extends ContentBlock['type']> = Extract<ContentBlock, { type: T }>;

const TextBlock = builder.objectRef<Block<'text'>>('TextBlock').implement({
  fields: (t) => ({ text: t.exposeString('text') }),
});

const ThinkingBlock = builder.objectRef<Block<'thinking'>>('ThinkingBlock').implement({
  fields: (t) => ({ thinking: t.exposeString('thinking', { description: 'empty when the transcript kept only a signature' }) }),
});

const ToolUseBlock = builder.objectRef<Block<'tool_use'>>('ToolUseBlock').implement({
  fields: (t) => ({
    toolUseId: t.exposeString('id'),
    name: t.exposeString('name'),
    input: t.field({ type: 'JSON', resolve: (b) => b.input }),
    cwd: t.exposeString('cwd', { nullable: true, description: "the session's working directory when the call was made, as its line records it" }),
  }),
});

const ImageBlock = builder.objectRef<Block<'image'>>('ImageBlock').implement({
  fields: (t) => ({
    mediaType: t.exposeString('mediaType', { nullable: true }),
    data: t.exposeString('data', { nullable: true, description: 'base64' }),
  }),
});

/** `subagent` is added beside Session (types/session.ts) */
export const ToolResultBlock = builder.objectRef<Block<'tool_result'>>('ToolResultBlock').implement({
  fields: (t) => ({
    toolUseId: t.exposeString('toolUseId', { description: 'the toolUseId of the ToolUseBlock this answers' }),
    toolName: t.exposeString('toolName', { nullable: true, description: 'name of the paired tool call, when it is on the path' }),
    isError: t.exposeBoolean('isError'),
    text: t.string({ description: 'the text parts of the result, joined', resolve: (b) => resultText(b.content) }),
    images: t.field({ type: [ImageBlock], description: 'the image parts of the result (a screenshot a tool returned)', resolve: (b) => b.images }),
    content: t.field({ type: 'JSON', nullable: true, resolve: (b) => b.content }),
  }),
});

const OpaqueBlock = builder.objectRef<Block<'opaque'>>('OpaqueBlock').implement({
  description: 'A content block of a type Loom does not know yet, kept whole.',
  fields: (t) => ({
    blockType: t.exposeString('blockType'),
    raw: t.field({ type: 'JSON', resolve: (b) => b.raw }),
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
