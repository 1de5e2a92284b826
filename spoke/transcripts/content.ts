import { open } from 'node:fs/promises';
import * as z from 'zod';
import { jsonOrNull } from '../model/json';
import { UnavailableError } from '../model/source';
import type { Atom, AtomMeta, ContentBlock } from '../model/types';

// Loads atoms' content from the transcript on demand, by the byte range the index kept, and
// turns Claude Code's message content into Loom's content blocks. Block types Loom does not know
// are kept whole as opaque blocks.

const TextBlock = z.object({ type: z.literal('text'), text: z.string() });
const ThinkingBlock = z.object({ type: z.literal('thinking'), thinking: z.string() });
const RedactedThinkingBlock = z.object({ type: z.literal('redacted_thinking') });
const ToolUseBlock = z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() });
const ToolResultBlock = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z.unknown().optional(),
  is_error: z.boolean().optional(),
});
const ImageBlock = z.object({
  type: z.literal('image'),
  source: z.object({ media_type: z.string().optional(), data: z.string().optional() }).optional(),
});
const Line = z.looseObject({
  uuid: z.string(),
  cwd: z.string().optional(),
  content: z.unknown().optional(),
  message: z.looseObject({ content: z.unknown().optional() }).optional(),
  attachment: z.looseObject({ prompt: z.unknown().optional() }).optional(),
  /** what Claude Code keeps beside a tool's result; a Task (Agent) call's names its subagent */
  toolUseResult: z.unknown().optional(),
});
/** the subagent a Task (Agent) call ran, in the shape 2.0 and later keep its toolUseResult */
const SubagentRun = z.looseObject({ agentId: z.string() });

export function toBlocks(content: unknown): ContentBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.map(toBlock);
}

function toBlock(raw: unknown): ContentBlock {
  const text = TextBlock.safeParse(raw);
  if (text.success) return { type: 'text', text: text.data.text };
  const thinking = ThinkingBlock.safeParse(raw);
  if (thinking.success) return { type: 'thinking', thinking: thinking.data.thinking };
  if (RedactedThinkingBlock.safeParse(raw).success) return { type: 'thinking', thinking: '' };
  const use = ToolUseBlock.safeParse(raw);
  if (use.success) return { type: 'tool_use', id: use.data.id, name: use.data.name, input: use.data.input ?? null, cwd: null };
  const result = ToolResultBlock.safeParse(raw);
  if (result.success) {
    const content = result.data.content ?? null;
    const images = Array.isArray(content) ? toBlocks(content).filter((b) => b.type === 'image') : [];
    return {
      type: 'tool_result',
      toolUseId: result.data.tool_use_id,
      toolName: null,
      content,
      isError: result.data.is_error === true,
      images,
      agentId: null,
      subagent: null,
    };
  }
  const image = ImageBlock.safeParse(raw);
  if (image.success) return { type: 'image', mediaType: image.data.source?.media_type ?? null, data: image.data.source?.data ?? null };
  const type = typeof raw === 'object' && raw && 'type' in raw && typeof raw.type === 'string' ? raw.type : 'unknown';
  return { type: 'opaque', blockType: type, raw };
}

/** The content of one transcript line, in the shape its record type keeps it. */
function contentOf(line: z.infer<typeof Line>): ContentBlock[] {
  if (line.message) return withLineFacts(toBlocks(line.message.content), line);
  if (line.attachment) return toBlocks(line.attachment.prompt);
  return toBlocks(line.content);
}

/**
 * What the line says beside its blocks: where the session was when it made its calls, and the
 * subagent a lone result's Task call ran (toolUseResult belongs to the line, so to one result).
 */
function withLineFacts(blocks: ContentBlock[], line: z.infer<typeof Line>): ContentBlock[] {
  const results = blocks.filter((b) => b.type === 'tool_result');
  const run = results.length === 1 ? SubagentRun.safeParse(line.toolUseResult) : null;
  for (const block of blocks) {
    if (block.type === 'tool_use') block.cwd = line.cwd ?? null;
    else if (block.type === 'tool_result' && run?.success) block.agentId = run.data.agentId;
  }
  return blocks;
}

/** Bytes of one range of a transcript that is no longer on disk (Loom's copy of it); null when there is none. */
export type CopyReader = (file: string) => ((offset: number, length: number) => Promise<Buffer>) | null;

/** The bytes of one range of a transcript: from the file, or from its copy once the file is gone. */
export async function readTranscriptRange(path: string, offset: number, length: number, copyOf: CopyReader = () => null): Promise<Buffer> {
  const handle = await openOrCopy(path, copyOf);
  try {
    return await handle.read(offset, length);
  } finally {
    await handle.close();
  }
}

/** A transcript to read ranges of: the file, or its copy when the file is gone. */
async function openOrCopy(path: string, copyOf: CopyReader): Promise<{ read(offset: number, length: number): Promise<Buffer>; close(): Promise<void> }> {
  try {
    const handle = await open(path, 'r');
    return {
      async read(offset, length) {
        const buffer = Buffer.allocUnsafe(length);
        const { bytesRead } = await handle.read(buffer, 0, length, offset);
        return buffer.subarray(0, bytesRead);
      },
      close: () => handle.close(),
    };
  } catch (err) {
    const copy = (err as NodeJS.ErrnoException).code === 'ENOENT' ? copyOf(path) : null;
    if (!copy) throw err;
    return { read: copy, close: async () => {} };
  }
}

/** Loads the content of atoms, reading each file once per call. Order is kept. */
export async function loadAtoms(metas: AtomMeta[], copyOf: CopyReader = () => null): Promise<Atom[]> {
  const out: Atom[] = new Array(metas.length);
  const byFile = new Map<string, number[]>();
  metas.forEach((m, i) => {
    // Idle atoms and new-chain dividers are Loom's own, not lines of a transcript: nothing to read.
    if (!m.file) {
      out[i] = { ...m, content: [] };
      return;
    }
    const indexes = byFile.get(m.file);
    if (indexes) indexes.push(i);
    else byFile.set(m.file, [i]);
  });
  for (const [file, indexes] of byFile) {
    const handle = await openOrCopy(file, copyOf);
    try {
      for (const i of indexes) {
        const meta = metas[i];
        const bytes = await handle.read(meta.offset, meta.length);
        const line = Line.safeParse(jsonOrNull(bytes.toString('utf8')));
        if (!line.success || line.data.uuid !== meta.uuid) {
          // No path in the message: errors reach API callers; the path is in the session's files.
          throw new UnavailableError(`the transcript (${meta.fsid}) changed under the index; it is being read again, ask again shortly`);
        }
        out[i] = { ...meta, content: contentOf(line.data) };
      }
    } finally {
      await handle.close();
    }
  }
  return out;
}
