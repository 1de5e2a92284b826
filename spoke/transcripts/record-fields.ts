import { isGoalTool, TASK_NUMBER_PREFIX } from './goal-tools';
import { compileWant, keyAt, type Plan, planWithout, type Want } from './line-scanner-plans';

// Every field readRecord (record.ts) reads from a transcript line, and the key numbers it reads
// them by: a line's values (line-values.ts) hold these alone. readRecord reads a field outside
// arrays only through a key below, which exists only for a field listed here; for an array's items,
// read by name, the test that watches readRecord's reads on every fixture line fails when one is
// not listed (test/unit/line-scanner.test.ts).

const whole: Want = {};
/** Read on user lines only (a prompt's text, cwd and branch), though every line carries them. */
const userOnly: Want = { when: (_, line) => line[KEYS.type] === 'user' };
/** A line's time, but for plain progress lines (the most common kind): only a subagent's message inside one is read for it. */
const timestamp: Want = { time: true, when: (_, line) => line[KEYS.type] !== 'progress' || line[KEYS.dataType] === 'agent_progress' };

/** A tool result's content matters only when it names a created task's number. */
const taskAnswer: Want = { prefix: TASK_NUMBER_PREFIX, items: { fields: { text: { prefix: TASK_NUMBER_PREFIX } } } };

/** A block of `message.content`: text, a tool call (its input only for goal tools) or a tool result. */
const block: Want = {
  fields: {
    type: whole,
    text: userOnly,
    id: whole,
    name: whole,
    input: { when: (b) => isGoalTool(b.name) },
    tool_use_id: whole,
    content: taskAnswer,
  },
};

const usage: Want = {
  fields: {
    input_tokens: whole,
    output_tokens: whole,
    cache_creation_input_tokens: whole,
    cache_read_input_tokens: whole,
    cache_creation: { fields: { ephemeral_5m_input_tokens: whole, ephemeral_1h_input_tokens: whole } },
  },
};

const apiMessage = (fields: Record<string, Want>): Want => ({ fields: { id: whole, model: whole, usage, ...fields } });

export const RECORD_FIELDS: Want = {
  fields: {
    type: whole,
    subtype: whole,
    uuid: whole,
    parentUuid: whole,
    isSidechain: whole,
    timestamp,
    requestId: whole,
    cwd: userOnly,
    gitBranch: userOnly,
    sessionId: whole,
    isMeta: whole,
    promptSource: whole,
    isCompactSummary: whole,
    // system lines
    content: whole,
    logicalParentUuid: whole,
    compactMetadata: { fields: { preservedSegment: { fields: { tailUuid: whole } } } },
    // summaries and titles
    leafUuid: whole,
    summary: whole,
    customTitle: whole,
    aiTitle: whole,
    title: whole,
    // a prompt queued while the model worked
    attachment: { fields: { type: whole, prompt: { items: { fields: { type: whole, text: whole } } } } },
    // a subagent's API message inside an agent_progress record
    data: { fields: { type: whole, message: { fields: { type: whole, timestamp: { time: true }, requestId: whole, uuid: whole, message: apiMessage({}) } } } },
    message: apiMessage({ stop_reason: whole, content: { items: block } }),
  },
};

export const RECORD_PLAN = compileWant(RECORD_FIELDS);
/** The session id every line carries is read in subagent files only, where it names the parent session. */
const MAIN_FILE_PLAN = planWithout(RECORD_PLAN, ['sessionId']);

/** The plan for a line of a main session file or of a subagent's file: the same keys, numbered the same. */
export const recordPlan = (role: 'main' | 'subagent'): Plan => (role === 'subagent' ? RECORD_PLAN : MAIN_FILE_PLAN);

const key = (...path: string[]): number => keyAt(RECORD_PLAN, ...path);

/** Where readRecord finds each field it reads outside arrays, in a line's values. */
export const KEYS = {
  type: key('type'),
  subtype: key('subtype'),
  uuid: key('uuid'),
  parentUuid: key('parentUuid'),
  isSidechain: key('isSidechain'),
  timestamp: key('timestamp'),
  requestId: key('requestId'),
  cwd: key('cwd'),
  gitBranch: key('gitBranch'),
  sessionId: key('sessionId'),
  isMeta: key('isMeta'),
  promptSource: key('promptSource'),
  isCompactSummary: key('isCompactSummary'),
  content: key('content'),
  logicalParentUuid: key('logicalParentUuid'),
  preservedTailUuid: key('compactMetadata', 'preservedSegment', 'tailUuid'),
  leafUuid: key('leafUuid'),
  summary: key('summary'),
  customTitle: key('customTitle'),
  aiTitle: key('aiTitle'),
  title: key('title'),
  attachment: key('attachment'),
  attachmentType: key('attachment', 'type'),
  attachmentPrompt: key('attachment', 'prompt'),
  data: key('data'),
  dataType: key('data', 'type'),
  /** a subagent's message inside an agent_progress record */
  embedded: key('data', 'message'),
  embeddedType: key('data', 'message', 'type'),
  embeddedTimestamp: key('data', 'message', 'timestamp'),
  embeddedRequestId: key('data', 'message', 'requestId'),
  embeddedUuid: key('data', 'message', 'uuid'),
  messageStopReason: key('message', 'stop_reason'),
  messageContent: key('message', 'content'),
};

/** Where an API message's fields are: the line's own, or a subagent's inside a progress record. */
export interface ApiMessageKeys {
  message: number;
  id: number;
  model: number;
  usage: number;
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
  cacheSplit: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
}

function apiMessageKeys(...at: string[]): ApiMessageKeys {
  return {
    message: key(...at),
    id: key(...at, 'id'),
    model: key(...at, 'model'),
    usage: key(...at, 'usage'),
    input: key(...at, 'usage', 'input_tokens'),
    output: key(...at, 'usage', 'output_tokens'),
    cacheWrite: key(...at, 'usage', 'cache_creation_input_tokens'),
    cacheRead: key(...at, 'usage', 'cache_read_input_tokens'),
    cacheSplit: key(...at, 'usage', 'cache_creation'),
    cacheWrite5m: key(...at, 'usage', 'cache_creation', 'ephemeral_5m_input_tokens'),
    cacheWrite1h: key(...at, 'usage', 'cache_creation', 'ephemeral_1h_input_tokens'),
  };
}

export const MESSAGE_KEYS = apiMessageKeys('message');
export const EMBEDDED_MESSAGE_KEYS = apiMessageKeys('data', 'message', 'message');
