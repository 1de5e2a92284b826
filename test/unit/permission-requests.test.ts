import { describe, expect, it } from 'vitest';
import { AnswerError, decisionFor } from '../../spoke/act/decisions';
import { PermissionRequests, RequestClosedError } from '../../spoke/act/requests';

// The pure parts of answering: what decision an answer makes, and which hook events close a request.

const question = (q: string, multiSelect: boolean, labels: string[]) => ({
  question: q,
  header: 'h',
  multiSelect,
  options: labels.map((label) => ({ label, description: '' })),
});

describe('decisionFor', () => {
  it('joins a multi-select like Claude Code, quoting a label that holds ", " or a quote', () => {
    const input = { questions: [question('Pick?', true, ['a, b', 'say "hi"', 'c'])] };
    const decision = decisionFor(
      { toolName: 'AskUserQuestion', input, suggestions: [] },
      { kind: 'answerQuestion', answers: [{ question: 'Pick?', selected: ['a, b', 'say "hi"', 'c'] }] },
    );
    expect(decision).toEqual({ behavior: 'allow', updatedInput: { ...input, answers: { 'Pick?': '"a, b", "say \\"hi\\"", c' } } });
  });

  it('refuses an answer of the wrong kind for the tool, and an answer to a question not asked', () => {
    const bash = { toolName: 'Bash', input: { command: 'ls' }, suggestions: [] };
    expect(() => decisionFor(bash, { kind: 'approvePlan', mode: null })).toThrow(AnswerError);
    expect(() => decisionFor({ toolName: 'ExitPlanMode', input: {}, suggestions: [] }, { kind: 'allow', always: false })).toThrow(AnswerError);
    const asked = { toolName: 'AskUserQuestion', input: { questions: [question('Q?', false, ['x'])] }, suggestions: [] };
    expect(() => decisionFor(asked, { kind: 'answerQuestion', answers: [{ question: 'Other?', selected: ['x'] }] })).toThrow(/not one of the questions/);
    expect(() => decisionFor(asked, { kind: 'answerQuestion', answers: [{ question: 'Q?', selected: [' '] }] })).toThrow(/needs an answer/);
  });
});

describe('PermissionRequests', () => {
  const setup = () => {
    const changed: string[] = [];
    const requests = new PermissionRequests({ now: () => 1000, waitMs: 60_000, changed: (id) => changed.push(id) });
    return { requests, changed };
  };
  const open = (requests: PermissionRequests, fields: object = {}) =>
    requests.open({ session_id: 's1', tool_name: 'Bash', tool_input: { command: 'ls', description: 'list' }, ...fields }, new AbortController().signal);

  it('closes a request when the same call ran, its input compared whatever the key order', async () => {
    const { requests } = setup();
    const { request, decision } = open(requests);
    requests.observe('PostToolUse', { session_id: 's1', tool_name: 'Bash', tool_input: { command: 'other' } });
    requests.observe('PostToolUse', { session_id: 's1', agent_id: 'a1', tool_name: 'Bash', tool_input: { description: 'list', command: 'ls' } });
    expect(requests.get(request.id)?.state).toBe('PENDING');
    requests.observe('PostToolUse', { session_id: 's1', tool_name: 'Bash', tool_input: { description: 'list', command: 'ls' } });
    expect(await decision).toBeNull();
    expect(requests.get(request.id)).toMatchObject({ state: 'ANSWERED_AT_TERMINAL', answeredBy: 'terminal' });
    expect(() => requests.answer(request.id, { kind: 'allow', always: false }, 'local')).toThrow(RequestClosedError);
  });

  it("closes the main session's requests when a turn ends or begins, and leaves a subagent's", () => {
    const { requests } = setup();
    const main = open(requests).request;
    const sub = open(requests, { agent_id: 'a1' }).request;
    requests.observe('Stop', { session_id: 's1' });
    expect(requests.get(main.id)?.state).toBe('ANSWERED_AT_TERMINAL');
    expect(requests.get(sub.id)?.state).toBe('PENDING');
  });

  it('withdraws a request whose hook went away, and says so to a late answer', async () => {
    const { requests, changed } = setup();
    const gone = new AbortController();
    const { request, decision } = requests.open({ session_id: 's1', tool_name: 'Bash', tool_input: {} }, gone.signal);
    gone.abort();
    expect(await decision).toBeNull();
    expect(() => requests.answer(request.id, { kind: 'deny', message: 'no' }, 'local')).toThrow(/stopped asking/);
    expect(changed).toEqual(['s1', 's1']);
  });
});
