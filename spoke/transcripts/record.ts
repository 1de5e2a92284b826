import { bareAtom } from '../model/atom';
import type { AtomMeta, AtomType, Author } from '../model/types';
import type { MessageUsage } from '../model/usage';
import { deriveAuthor, isInterruptLine, isTerminalNote, promptLine } from './author';
import { arr, type Json, obj, str, time } from './fields';
import { readGoalTool, taskNumber } from './goal-tools';
import { scanLine } from './line-scanner';
import { loomMessageIn } from './loom-marker';
import type { TranscriptPlace } from './paths';
import { RECORD_PLAN } from './record-fields';
import type { Line } from './tail';

// One transcript line, reduced to what the index keeps. Content stays on disk (offset/length)
// and is loaded on demand, so memory grows with the number of lines, not their size.

/** Where the line sits in its file. */
export interface LinePlace {
  file: string;
  fsid: string;
  offset: number;
  length: number;
}

/**
 * One line of a transcript file: the record it holds, a reason it holds none (not JSON, not a
 * record), or null for a blank line. The fields the index keeps are read straight from the
 * line's bytes (line-scanner.ts); a line the scanner is unsure of is parsed whole.
 */
export function parseLine(line: Line, file: string, place: Pick<TranscriptPlace, 'fsid' | 'role'>): TranscriptRecord | string | null {
  // Only a line that starts with white space can be blank; trimming every line would copy it.
  if (line.length === 0 || (line.bytes[line.start] <= 32 && line.text.trim() === '')) return null;
  let raw: unknown = scanLine(line.bytes, line.start, line.start + line.length, RECORD_PLAN);
  if (raw === null) {
    try {
      raw = JSON.parse(line.text);
    } catch (err) {
      return `not JSON: ${(err as Error).message}`;
    }
  }
  return readRecord(raw, { file, fsid: place.fsid, offset: line.offset, length: line.length, role: place.role });
}

/** A compact_boundary's links back into the history before it. */
export interface Boundary {
  logicalParent: string | null;
  preservedTail: string | null;
}

/** A line that takes part in the uuid graph. `atom` is set when it is a message on the path. */
export interface GraphRecord {
  kind: 'graph';
  uuid: string;
  parent: string | null;
  sidechain: boolean;
  recordType: string;
  file: string;
  atom: AtomMeta | null;
  boundary: Boundary | null;
  /** read from prompt and tool-result lines only: they carry them as well as any line */
  cwd: string | null;
  gitBranch: string | null;
  /** read from subagent files only, where it names the parent session */
  sessionId: string | null;
  /**
   * A subagent's API message carried inside an `agent_progress` record of its parent: sometimes
   * the only trace of that call (the subagent's own file may be gone), so it is counted too.
   */
  subagentUsage: MessageUsage | null;
}

export interface SummaryRecord {
  kind: 'summary';
  leafUuid: string;
  text: string;
}
export interface TitleRecord {
  kind: 'title';
  title: string;
  custom: boolean;
}
/** Anything else (file-history-snapshot, queue-operation, unknown types): counted, not lost. */
export interface OtherRecord {
  kind: 'other';
  recordType: string;
  sidechain: boolean;
  uuid: null;
  parent: null;
}

export type TranscriptRecord = GraphRecord | SummaryRecord | TitleRecord | OtherRecord;

const ATOM_TYPES = new Set<string>(['user', 'assistant', 'system', 'result']);

// Property reads on parsed records of many shapes are slow (megamorphic), and this runs once
// per line of every transcript: each read below is one the index needs for that record type.
// Every field read here is listed in record-fields.ts: the fast path builds only those.
export function readRecord(raw: unknown, place: LinePlace & { role: 'main' | 'subagent' }): TranscriptRecord | string {
  const r = obj(raw);
  if (!r) return 'line is JSON but not an object';
  const type = str(r.type);
  if (!type) return 'record has no "type"';
  const uuid = str(r.uuid);
  if (!uuid) {
    if (type === 'summary') {
      const leafUuid = str(r.leafUuid);
      const text = str(r.summary);
      if (leafUuid && text) return { kind: 'summary', leafUuid, text };
    } else if (type === 'custom-title' || type === 'ai-title') {
      const title = str(r.customTitle) ?? str(r.aiTitle) ?? str(r.title);
      if (title) return { kind: 'title', title, custom: type === 'custom-title' };
    }
    return { kind: 'other', recordType: type, sidechain: false, uuid: null, parent: null };
  }
  const isUser = type === 'user';
  const isBoundary = type === 'system' && r.subtype === 'compact_boundary';
  return {
    kind: 'graph',
    uuid,
    parent: str(r.parentUuid),
    sidechain: r.isSidechain === true,
    recordType: type,
    file: place.file,
    atom: readAtom(r, type, uuid, place),
    boundary: isBoundary ? readBoundary(r) : null,
    cwd: isUser ? str(r.cwd) : null,
    gitBranch: isUser ? str(r.gitBranch) : null,
    sessionId: place.role === 'subagent' ? str(r.sessionId) : null,
    subagentUsage: type === 'progress' ? readProgressUsage(r) : null,
  };
}

function readProgressUsage(r: Json): MessageUsage | null {
  const data = obj(r.data);
  if (data?.type !== 'agent_progress') return null;
  const embedded = obj(data.message);
  const message = obj(embedded?.message);
  if (!embedded || !message || embedded.type !== 'assistant') return null;
  const t = time(embedded.timestamp) ?? time(r.timestamp) ?? 0;
  return readUsage(message, str(embedded.requestId), str(embedded.uuid) ?? '', t, str(message.model));
}

function readBoundary(r: Json): Boundary {
  const metadata = obj(r.compactMetadata);
  return { logicalParent: str(r.logicalParentUuid), preservedTail: str(obj(metadata?.preservedSegment)?.tailUuid) };
}

function readAtom(r: Json, type: string, uuid: string, place: LinePlace): AtomMeta | null {
  const queued = type === 'attachment' ? queuedPrompt(r) : null;
  if (!ATOM_TYPES.has(type) && queued === null) return null;
  const message = obj(r.message);
  const atom = bareAtom(uuid, (queued !== null ? 'user' : type) as AtomType, time(r.timestamp) ?? 0, place);
  atom.subtype = str(r.subtype);
  if (queued !== null) {
    // A prompt typed while the model worked, spliced into the running turn; or a harness notice
    // queued the same way (a background task's <task-notification>).
    const text = queued.trimStart();
    atom.author = deriveAuthor({ promptSource: null, isMeta: false, isCompactSummary: false, text, toolResultOnly: false });
    if (isOpenerAuthor(atom.author)) atom.promptLine = promptLine(queued);
  } else if (type === 'assistant' && message) {
    atom.model = str(message.model);
    atom.stopReason = str(message.stop_reason);
    readToolUses(atom, arr(message.content));
    atom.usage = readUsage(message, str(r.requestId), uuid, atom.t, atom.model);
  } else if (type === 'user' && message) {
    readUserLine(atom, r, message.content);
  } else if (type === 'system') {
    // 2.x writes a local slash command and its output as system lines of subtype local_command.
    atom.terminalNote = atom.subtype === 'local_command' || isTerminalNote(str(r.content)?.trimStart() ?? null);
  }
  return atom;
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);

function readUsage(message: Json, requestId: string | null, uuid: string, t: number, model: string | null): MessageUsage | null {
  const usage = obj(message.usage);
  if (!usage) return null;
  const split = obj(usage.cache_creation);
  const id = str(message.id);
  return {
    key: id && requestId ? `${id}:${requestId}` : uuid,
    t,
    model,
    input: count(usage.input_tokens),
    output: count(usage.output_tokens),
    cacheWrite: count(usage.cache_creation_input_tokens),
    cacheWrite5m: count(split?.ephemeral_5m_input_tokens),
    cacheWrite1h: count(split?.ephemeral_1h_input_tokens),
    cacheRead: count(usage.cache_read_input_tokens),
  };
}

function readToolUses(atom: AtomMeta, content: unknown[] | null): void {
  if (!content) return;
  for (const block of content) {
    const b = obj(block);
    if (b?.type !== 'tool_use') continue;
    const id = str(b.id);
    if (!id) continue;
    const name = str(b.name) ?? 'unknown';
    atom.toolUses = appended(atom.toolUses, id);
    atom.toolNames = appended(atom.toolNames, name);
    const goalTool = readGoalTool(id, name, obj(b.input));
    if (goalTool) atom.goalTools = appended(atom.goalTools, goalTool);
  }
}

function readUserLine(atom: AtomMeta, r: Json, content: unknown): void {
  let text: string | null = null;
  let results = 0;
  let blocks = 0;
  if (typeof content === 'string') {
    text = content;
  } else if (Array.isArray(content)) {
    for (const block of content) {
      const b = obj(block);
      if (!b) continue;
      blocks++;
      if (b.type === 'tool_result') {
        results++;
        const id = str(b.tool_use_id);
        if (id) {
          atom.toolResults = appended(atom.toolResults, id);
          const task = taskNumber(b.content);
          if (task) atom.goalTools = appended(atom.goalTools, { id, kind: 'TASK_NUMBER', text: task });
        }
      } else if (b.type === 'text') {
        // IDE context arrives as its own text block before the prompt: join them.
        const part = str(b.text);
        if (part !== null) text = text === null ? part : `${text}\n${part}`;
      }
    }
  }
  const trimmed = text?.trimStart() ?? null;
  atom.interrupt = isInterruptLine(trimmed);
  atom.terminalNote = isTerminalNote(trimmed);
  const sent = r.isMeta === true ? loomMessageIn(trimmed) : null;
  atom.author = atom.interrupt
    ? { kind: 'system' }
    : sent
      ? { kind: 'human', via: 'loom', messageId: sent.id }
      : deriveAuthor({
          promptSource: str(r.promptSource),
          isMeta: r.isMeta === true,
          isCompactSummary: r.isCompactSummary === true,
          text: trimmed,
          toolResultOnly: blocks > 0 && results === blocks,
        });
  if (trimmed !== null && isOpenerAuthor(atom.author)) atom.promptLine = promptLine(sent ? sent.text : trimmed);
}

function queuedPrompt(r: Json): string | null {
  const attachment = obj(r.attachment);
  if (attachment?.type !== 'queued_command') return null;
  const prompt = attachment.prompt;
  if (typeof prompt === 'string') return prompt;
  const first = arr(prompt)
    ?.map(obj)
    .find((b) => b?.type === 'text');
  return str(first?.text) ?? '';
}

/** Human, sdk and peer prompts open turns; system injections never do. */
export const isOpenerAuthor = (author: Author | null): boolean => author !== null && author.kind !== 'system';

/** An optional list with one more item: atoms carry these lists only when they have an item. */
function appended<T>(list: T[] | null | undefined, item: T): T[] {
  if (!list) return [item];
  list.push(item);
  return list;
}
