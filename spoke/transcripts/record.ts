import { bareAtom } from '../model/atom';
import type { AtomMeta, AtomType, Author } from '../model/types';
import type { MessageUsage } from '../model/usage';
import { messageKey } from '../usage/ledger';
import { deriveAuthor, isInterruptLine, isTerminalNote, promptLine } from './author';
import { arr, obj, str } from './fields';
import { readGoalTool, taskNumber } from './goal-tools';
import { scanLine } from './line-scanner';
import type { LineValues } from './line-scanner-plans';
import { AN_OBJECT, emptyValues, valuesOf } from './line-values';
import { loomMessageIn } from './loom-marker';
import type { TranscriptPlace } from './paths';
import { type ApiMessageKeys, EMBEDDED_MESSAGE_KEYS, KEYS, MESSAGE_KEYS, RECORD_PLAN, recordPlan } from './record-fields';
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
  const at = { file, fsid: place.fsid, offset: line.offset, length: line.length, role: place.role };
  const values = scanLine(line.bytes, line.start, line.start + line.length, recordPlan(place.role));
  if (values !== null) return readKept(values, at);
  let raw: unknown;
  try {
    raw = JSON.parse(line.text);
  } catch (err) {
    return `not JSON: ${(err as Error).message}`;
  }
  return readParsedLine(raw, at);
}

/** A line JSON.parse read whole: its record, or why it holds none. */
export function readParsedLine(raw: unknown, place: LinePlace & { role: 'main' | 'subagent' }): TranscriptRecord | string {
  const r = obj(raw);
  if (!r) return 'line is JSON but not an object';
  return readKept(valuesOf(r, RECORD_PLAN), place);
}

/**
 * The record of a line's values, which are emptied as it is made: a line's strings (a 40 MB
 * prompt, the content array JSON.parse built) are not held until the next line is read.
 */
function readKept(values: LineValues, place: LinePlace & { role: 'main' | 'subagent' }): TranscriptRecord | string {
  try {
    return readRecord(values, place);
  } finally {
    emptyValues();
  }
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
/** Anything else (file-history-snapshot, queue-operation, unknown types): read, never an error, and kept out of the graph. */
export interface OtherRecord {
  kind: 'other';
  sidechain: boolean;
  uuid: null;
  parent: null;
}

export type TranscriptRecord = GraphRecord | SummaryRecord | TitleRecord | OtherRecord;

const ATOM_TYPES = new Set<string>(['user', 'assistant', 'system', 'result']);

const isObject = (v: unknown): boolean => v === AN_OBJECT;
/** A time the line's values keep (record-fields.ts reads each as one): epoch ms, or null. */
const timeOf = (v: unknown): number | null => v as number | null;

// Runs once per line of every transcript: each value read below is one the index needs for that
// record type, by its key in the line's values (record-fields.ts).
export function readRecord(line: LineValues, place: LinePlace & { role: 'main' | 'subagent' }): TranscriptRecord | string {
  const type = str(line[KEYS.type]);
  if (!type) return 'record has no "type"';
  const uuid = str(line[KEYS.uuid]);
  if (!uuid) {
    if (type === 'summary') {
      const leafUuid = str(line[KEYS.leafUuid]);
      const text = str(line[KEYS.summary]);
      if (leafUuid && text) return { kind: 'summary', leafUuid, text };
    } else if (type === 'custom-title' || type === 'ai-title') {
      const title = str(line[KEYS.customTitle]) ?? str(line[KEYS.aiTitle]) ?? str(line[KEYS.title]);
      if (title) return { kind: 'title', title, custom: type === 'custom-title' };
    }
    return { kind: 'other', sidechain: false, uuid: null, parent: null };
  }
  const isUser = type === 'user';
  const isBoundary = type === 'system' && line[KEYS.subtype] === 'compact_boundary';
  return {
    kind: 'graph',
    uuid,
    parent: str(line[KEYS.parentUuid]),
    sidechain: line[KEYS.isSidechain] === true,
    file: place.file,
    atom: readAtom(line, type, uuid, place),
    boundary: isBoundary ? { logicalParent: str(line[KEYS.logicalParentUuid]), preservedTail: str(line[KEYS.preservedTailUuid]) } : null,
    cwd: isUser ? str(line[KEYS.cwd]) : null,
    gitBranch: isUser ? str(line[KEYS.gitBranch]) : null,
    sessionId: place.role === 'subagent' ? str(line[KEYS.sessionId]) : null,
    subagentUsage: type === 'progress' ? readProgressUsage(line) : null,
  };
}

function readProgressUsage(line: LineValues): MessageUsage | null {
  if (!isObject(line[KEYS.data]) || line[KEYS.dataType] !== 'agent_progress') return null;
  if (!isObject(line[KEYS.embedded]) || !isObject(line[EMBEDDED_MESSAGE_KEYS.message]) || line[KEYS.embeddedType] !== 'assistant') return null;
  const t = timeOf(line[KEYS.embeddedTimestamp]) ?? timeOf(line[KEYS.timestamp]) ?? 0;
  const model = str(line[EMBEDDED_MESSAGE_KEYS.model]);
  return readUsage(line, EMBEDDED_MESSAGE_KEYS, str(line[KEYS.embeddedRequestId]), str(line[KEYS.embeddedUuid]) ?? '', t, model);
}

function readAtom(line: LineValues, type: string, uuid: string, place: LinePlace): AtomMeta | null {
  const queued = type === 'attachment' ? queuedPrompt(line) : null;
  if (!ATOM_TYPES.has(type) && queued === null) return null;
  const message = isObject(line[MESSAGE_KEYS.message]);
  const atom = bareAtom(uuid, (queued !== null ? 'user' : type) as AtomType, timeOf(line[KEYS.timestamp]) ?? 0, place);
  atom.subtype = str(line[KEYS.subtype]);
  if (queued !== null) {
    // A prompt typed while the model worked, spliced into the running turn; or a harness notice
    // queued the same way (a background task's <task-notification>).
    const text = queued.trimStart();
    atom.author = deriveAuthor({ promptSource: null, isMeta: false, isCompactSummary: false, text, toolResultOnly: false });
    if (isOpenerAuthor(atom.author)) atom.promptLine = promptLine(queued);
  } else if (type === 'assistant' && message) {
    atom.model = str(line[MESSAGE_KEYS.model]);
    atom.stopReason = str(line[KEYS.messageStopReason]);
    readToolUses(atom, arr(line[KEYS.messageContent]));
    atom.usage = readUsage(line, MESSAGE_KEYS, str(line[KEYS.requestId]), uuid, atom.t, atom.model);
  } else if (type === 'user' && message) {
    readUserLine(atom, line, line[KEYS.messageContent]);
  } else if (type === 'system') {
    // 2.x writes a local slash command and its output as system lines of subtype local_command.
    atom.terminalNote = atom.subtype === 'local_command' || isTerminalNote(str(line[KEYS.content])?.trimStart() ?? null);
  }
  return atom;
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);

function readUsage(line: LineValues, at: ApiMessageKeys, requestId: string | null, uuid: string, t: number, model: string | null): MessageUsage | null {
  if (!isObject(line[at.usage])) return null;
  const id = str(line[at.id]);
  return {
    key: messageKey(id, requestId, uuid),
    t,
    model,
    input: count(line[at.input]),
    output: count(line[at.output]),
    cacheWrite: count(line[at.cacheWrite]),
    cacheWrite5m: count(line[at.cacheWrite5m]),
    cacheWrite1h: count(line[at.cacheWrite1h]),
    cacheRead: count(line[at.cacheRead]),
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

function readUserLine(atom: AtomMeta, line: LineValues, content: unknown): void {
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
  const isMeta = line[KEYS.isMeta] === true;
  const sent = isMeta ? loomMessageIn(trimmed) : null;
  atom.author = atom.interrupt
    ? { kind: 'system' }
    : sent
      ? { kind: 'human', via: 'loom', messageId: sent.id }
      : deriveAuthor({
          promptSource: str(line[KEYS.promptSource]),
          isMeta,
          isCompactSummary: line[KEYS.isCompactSummary] === true,
          text: trimmed,
          toolResultOnly: blocks > 0 && results === blocks,
        });
  if (trimmed !== null && isOpenerAuthor(atom.author)) atom.promptLine = promptLine(sent ? sent.text : trimmed);
}

function queuedPrompt(line: LineValues): string | null {
  if (!isObject(line[KEYS.attachment]) || line[KEYS.attachmentType] !== 'queued_command') return null;
  const prompt = line[KEYS.attachmentPrompt];
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
