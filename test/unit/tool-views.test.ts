import { describe, expect, it } from 'vitest';
import { keyInput } from '../../web/src/chat/tool-summary';
import { taskItems, todoItems } from '../../web/src/chat/tools/checklist-items';
import { exitStatus } from '../../web/src/chat/tools/exit-status';
import { reportOf } from '../../web/src/chat/tools/subagent-report';

// What the chat reads out of a tool call before drawing it: checklist items, a command's exit
// status, a subagent's report, and the one line a collapsed call shows.

const todos = {
  todos: [
    { content: 'Fix addModel', status: 'completed', activeForm: 'Fixing addModel' },
    { content: 'Add input validation', status: 'in_progress', activeForm: 'Adding input validation' },
    { content: 'Improve error handling', status: 'pending', activeForm: 'Improving error handling' },
  ],
};

describe('checklist items', () => {
  it('takes every todo of a TodoWrite with its status', () => {
    expect(todoItems(todos)).toEqual([
      { text: 'Fix addModel', status: 'completed', note: null },
      { text: 'Add input validation', status: 'in_progress', note: null },
      { text: 'Improve error handling', status: 'pending', note: null },
    ]);
  });

  it('makes a created task a pending item with its description, and an update the numbered task with its new status and owner', () => {
    expect(taskItems('TaskCreate', { subject: 'Research plan mode', description: 'alice writes it up' })).toEqual([
      { text: 'Research plan mode', status: 'pending', note: 'alice writes it up' },
    ]);
    expect(taskItems('TaskUpdate', { taskId: '1', status: 'in_progress', owner: 'alice' })).toEqual([
      { text: 'task #1', status: 'in_progress', note: 'owner alice' },
    ]);
    expect(taskItems('TaskUpdate', { taskId: 2, subject: 'Merge' })).toEqual([{ text: '#2 Merge', status: null, note: null }]);
  });

  it('reads nothing from a todo list that is not a list', () => {
    expect(todoItems({ todos: 'soon' })).toEqual([]);
  });
});

describe("a Bash call's exit status", () => {
  it('is 0 for a result that is no error, the code Claude Code wrote for one that is, and "failed" when it wrote none', () => {
    expect(exitStatus(false, 'ok')).toBe('exit 0');
    expect(exitStatus(true, 'Exit code 128\nfatal: not a git repository')).toBe('exit 128');
    expect(exitStatus(true, "The user doesn't want to proceed with this tool use.")).toBe('failed');
  });
});

describe("a subagent's report", () => {
  it("drops the trailer for the model (agentId, worktree, usage) and keeps the subagent's message", () => {
    const text =
      "Round 1 complete.\n\n- **Branch:** `alice/research`\nagentId: a4ca7529859c158c2 (use SendMessage with to: 'a4ca7529859c158c2' to continue this agent)\nworktreePath: x\n<usage>total_tokens: 48421</usage>";
    expect(reportOf(text)).toBe('Round 1 complete.\n\n- **Branch:** `alice/research`');
  });

  it('keeps a report that has no trailer as it is', () => {
    expect(reportOf('All done; agentId: is mentioned inline')).toBe('All done; agentId: is mentioned inline');
  });
});

describe("a collapsed call's headline", () => {
  it("counts a todo list's done items and names the one under way", () => {
    expect(keyInput('TodoWrite', todos)).toBe('1 of 3 done · Add input validation');
  });

  it("shows a plan's first line without its Markdown, and a task update's number and status", () => {
    expect(keyInput('ExitPlanMode', { plan: '## Refactoring **Plan**\n\n### Phase 1' })).toBe('Refactoring Plan');
    expect(keyInput('TaskUpdate', { taskId: '3', status: 'completed' })).toBe('task #3 → done');
  });

  it('still reads the key field of other tools', () => {
    expect(keyInput('Bash', { command: 'npm test', description: 'run the tests' })).toBe('npm test');
  });
});
