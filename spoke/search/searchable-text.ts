import { arr, obj, str } from '../transcripts/fields';

// What of a transcript line is searched: prompts and replies, thinking, the names of the tools it
// called or answered, every string a tool was given (commands, paths, patterns, edits), and what
// tools returned. Progress, system and snapshot lines say nothing a person looks for.

export interface SearchableText {
  text: string;
  thinking: string;
  tools: string;
  input: string;
  output: string;
}

export interface LineFacts {
  uuid: string;
  type: 'user' | 'assistant';
  /** epoch ms; 0 when the line has no time */
  t: number;
  /** the working directory the line names, if any */
  cwd: string | null;
  /** tool calls this line makes: id → name, so later results can name their tool */
  calls: [string, string][];
  searchable: SearchableText | null;
}

/** A field past this is cut: a 50 MB tool output is searched by its first megabyte. */
export const FIELD_LIMIT = 1 << 20;

/**
 * The facts of one parsed line, or null when it is not a message. `toolOf` names the tool a
 * result answers (calls may be on earlier lines).
 */
export function lineFacts(raw: unknown, toolOf: (id: string) => string | null): LineFacts | null {
  const line = obj(raw);
  const type = line && str(line.type);
  const uuid = line && str(line.uuid);
  if (!line || !uuid || (type !== 'user' && type !== 'assistant')) return null;
  const time = str(line.timestamp);
  const parts = { text: [] as string[], thinking: [] as string[], tools: [] as string[], input: [] as string[], output: [] as string[] };
  const calls: [string, string][] = [];
  const content = obj(line.message)?.content;
  if (typeof content === 'string') parts.text.push(content);
  for (const item of arr(content) ?? []) {
    const block = obj(item);
    if (!block) continue;
    if (block.type === 'text') pushString(parts.text, block.text);
    else if (block.type === 'thinking') pushString(parts.thinking, block.thinking);
    else if (block.type === 'tool_use') {
      const name = str(block.name);
      const id = str(block.id);
      if (name) parts.tools.push(name);
      if (name && id) calls.push([id, name]);
      stringLeaves(block.input, parts.input);
    } else if (block.type === 'tool_result') {
      const id = str(block.tool_use_id);
      const name = id && (calls.find(([c]) => c === id)?.[1] ?? toolOf(id));
      if (name) parts.tools.push(name);
      stringLeaves(block.content, parts.output, 'text');
    }
  }
  const searchable = {
    text: joined(parts.text),
    thinking: joined(parts.thinking),
    tools: parts.tools.join(' '),
    input: joined(parts.input),
    output: joined(parts.output),
  };
  const empty = !searchable.text && !searchable.thinking && !searchable.tools && !searchable.input && !searchable.output;
  const t = time ? Date.parse(time) : Number.NaN;
  return { uuid, type, t: Number.isNaN(t) ? 0 : t, cwd: type === 'user' ? str(line.cwd) : null, calls, searchable: empty ? null : searchable };
}

function pushString(into: string[], value: unknown): void {
  if (typeof value === 'string' && value) into.push(value);
}

/** Every string under a value; with `key`, only strings held under that key (a result's text blocks) or bare. */
function stringLeaves(value: unknown, into: string[], key?: string): void {
  if (typeof value === 'string') {
    if (value) into.push(value);
  } else if (Array.isArray(value)) {
    for (const v of value) stringLeaves(v, into, key);
  } else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (key) {
      // a result's content: text blocks only (an image's base64 is not text anyone searches)
      if (o.type === 'text') pushString(into, o[key]);
      return;
    }
    for (const k in o) stringLeaves(o[k], into);
  }
}

function joined(parts: string[]): string {
  const all = parts.join('\n');
  return all.length > FIELD_LIMIT ? all.slice(0, FIELD_LIMIT) : all;
}
