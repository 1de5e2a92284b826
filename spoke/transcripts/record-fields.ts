import { obj } from './fields';
import { isGoalTool, TASK_NUMBER_PREFIX } from './goal-tools';
import { compileWant, type Want } from './line-scanner-plans';

// Every field readRecord (record.ts) reads from a transcript line: the fast path builds a line's
// object from these alone. A field readRecord starts reading is added here too, or the test that
// watches readRecord's reads on every fixture line fails (test/unit/line-scanner.test.ts).

const whole: Want = {};
/** Read on user lines only (a prompt's text, cwd and branch), though every line carries them. */
const userOnly: Want = { when: (_, record) => record.type === 'user' };
/** A line's time, but for plain progress lines (the most common kind): only a subagent's message inside one is read for it. */
const timestamp: Want = { when: (_, record) => record.type !== 'progress' || obj(record.data)?.type === 'agent_progress' };

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
    data: { fields: { type: whole, message: { fields: { type: whole, timestamp: whole, requestId: whole, uuid: whole, message: apiMessage({}) } } } },
    message: apiMessage({ stop_reason: whole, content: { items: block } }),
  },
};

export const RECORD_PLAN = compileWant(RECORD_FIELDS);
