import type { Line } from '../../spoke/transcripts/tail';

// Minimal Claude Code transcript lines for tests that need a shape the fixtures lack.
// Each builder returns one record; `line` serialises it.

let clock = Date.parse('2026-01-01T10:00:00.000Z');
const at = (): string => {
  clock += 1000;
  return new Date(clock).toISOString();
};
const base = (uuid: string, parent: string | null) => ({
  parentUuid: parent,
  isSidechain: false,
  userType: 'external',
  cwd: '/home/dev/demo',
  sessionId: 'test-session',
  version: '2.1.39',
  gitBranch: 'main',
  uuid,
  timestamp: at(),
});

export const line = (record: unknown): string => `${JSON.stringify(record)}\n`;

/** One line of text as a file reader hands it on (its bytes, numbered, at an offset in bytes). */
export function readerLine(text: string, number = 1, offset = 0): Line {
  const bytes = Buffer.from(text);
  return { bytes, start: 0, text, number, offset, length: bytes.length };
}

/** The timestamp of the newest record built so far: a kernel clock near it makes what a test wrote recent. */
export const lastWritten = (): number => clock;

export const prompt = (uuid: string, parent: string | null, text: string, extra: object = {}) => ({
  ...base(uuid, parent),
  type: 'user',
  message: { role: 'user', content: text },
  ...extra,
});

/** `message` names the API message: 2.x writes one message as several lines, one per block, sharing it. */
export const assistant = (uuid: string, parent: string | null, content: unknown[], stop: string | null = null, message = uuid) => ({
  ...base(uuid, parent),
  type: 'assistant',
  requestId: `req_${message}`,
  message: {
    id: `msg_${message}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-opus-4-6',
    content,
    stop_reason: stop,
    usage: { input_tokens: 1, output_tokens: 1 },
  },
});

export const say = (text: string) => ({ type: 'text', text });
export const toolUse = (id: string, name = 'Bash', input: object = { command: 'ls' }) => ({ type: 'tool_use', id, name, input });

export const toolResult = (uuid: string, parent: string, toolUseId: string, content: unknown = 'ok', isError = false) => ({
  ...base(uuid, parent),
  type: 'user',
  message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content, ...(isError && { is_error: true }) }] },
});

/** A tool result holding a picture, as a browser tool's screenshot comes back. */
export const screenshot = (data: string) => [
  { type: 'text', text: 'Took a screenshot' },
  { type: 'image', source: { type: 'base64', media_type: 'image/png', data } },
];

export const system = (uuid: string, parent: string | null, subtype: string, extra: object = {}) => ({
  ...base(uuid, parent),
  type: 'system',
  subtype,
  content: subtype,
  ...extra,
});

export const progress = (uuid: string, parent: string | null) => ({ ...base(uuid, parent), type: 'progress', data: { type: 'hook_progress' } });

/**
 * 2.1.x parallel tool calls: one API message written as a line per block (the third call a
 * browser screenshot), each result's parent its own call, the chain going on from the last.
 */
export const parallelToolCalls = () => [
  prompt('p1', null, 'look at the page and both files'),
  assistant('say', 'p1', [say('Reading all three at once.')], null, 'm1'),
  assistant('u1', 'say', [toolUse('t1', 'Read')], null, 'm1'),
  progress('g1', 'u1'),
  assistant('u2', 'g1', [toolUse('t2', 'Read')], null, 'm1'),
  progress('g2', 'u2'),
  assistant('u3', 'g2', [toolUse('t3', 'mcp__browser__screenshot')], 'tool_use', 'm1'),
  toolResult('r1', 'u1', 't1'),
  toolResult('r2', 'u2', 't2'),
  toolResult('r3', 'u3', 't3', screenshot('iVBORw0KGgo=')),
  assistant('a2', 'r3', [say('All three read.')], 'end_turn'),
];
