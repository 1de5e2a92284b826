import { describe, expect, it } from 'vitest';
import { judgeGoals } from '../../spoke/goals/judge';
import { bareAtom } from '../../spoke/model/atom';
import type { AtomMeta, GoalTool, Turn } from '../../spoke/model/types';

// The judge on turns built by hand: the parts of a goal, its block and its rolled-up status, each
// case in one turn. The integration tests read the same from real-shaped transcripts.

const place = { fsid: 'f', file: 'f.jsonl', offset: 0, length: 0 };
let clock = 1_700_000_000_000;

function prompt(text: string): AtomMeta {
  const atom = bareAtom(`prompt-${clock}`, 'user', clock++, place);
  atom.author = { kind: 'human' };
  atom.promptLine = text;
  return atom;
}

function calls(...goalTools: GoalTool[]): AtomMeta {
  const atom = bareAtom(`call-${clock}`, 'assistant', clock++, place);
  atom.goalTools = goalTools;
  return atom;
}

function results(...ids: string[]): AtomMeta {
  const atom = bareAtom(`result-${clock}`, 'user', clock++, place);
  atom.toolResults = ids;
  return atom;
}

function turn(ended: boolean, ...atoms: AtomMeta[]): Turn {
  const trigger = atoms[0];
  const end = atoms[atoms.length - 1].t;
  return { id: trigger.uuid, index: 0, trigger, t: trigger.t, end, ended, interrupted: false, atoms, segments: [], rewoundBranches: [] };
}

describe('the judge', () => {
  it("lists a goal's parts as its latest todo list, then the tasks it created, then its subagents, each with its status", () => {
    const [goal] = judgeGoals([
      turn(
        true,
        prompt('Ship the release'),
        calls({ id: 't1', kind: 'TODOS', text: '', todos: [{ content: 'Draft', status: 'pending' }] }),
        calls(
          {
            id: 't2',
            kind: 'TODOS',
            text: '',
            todos: [
              { content: 'Draft', status: 'completed' },
              { content: 'Publish', status: 'in_progress' },
            ],
          },
          { id: 'c1', kind: 'TASK_CREATE', text: 'Tag the build' },
          { id: 'a1', kind: 'SUBAGENT', text: 'Check the changelog' },
          { id: 'a2', kind: 'SUBAGENT', text: 'Check the docs' },
        ),
        results('a2'),
      ),
    ]);
    expect(goal.children).toEqual([
      { key: 'todo-1', kind: 'TODO', title: 'Draft', status: 'COMPLETED' },
      { key: 'todo-2', kind: 'TODO', title: 'Publish', status: 'WORKING' },
      { key: 'task-1', kind: 'TASK', title: 'Tag the build', status: 'WORKING' },
      { key: 'subagent-a1', kind: 'SUBAGENT', title: 'Check the changelog', status: 'WORKING' },
      { key: 'subagent-a2', kind: 'SUBAGENT', title: 'Check the docs', status: 'COMPLETED' },
    ]);
    // the turn ended, but parts of it are still at work
    expect(goal).toMatchObject({ status: 'COMPLETED', rolledUpStatus: 'WORKING', outcome: 'COMPLETED' });
  });

  it('rolls an ended turn up as COMPLETED once every part is done, and one without parts likewise', () => {
    const [withParts, without] = judgeGoals([
      turn(true, prompt('Tidy up'), calls({ id: 'a1', kind: 'SUBAGENT', text: 'Sweep' }), results('a1')),
      turn(true, prompt('Say hi'), calls()),
    ]);
    expect(withParts).toMatchObject({ status: 'COMPLETED', rolledUpStatus: 'COMPLETED' });
    expect(without).toMatchObject({ status: 'COMPLETED', rolledUpStatus: 'COMPLETED', children: [] });
  });

  it('blocks on the last question or plan still waiting for its answer, and on none once all are answered', () => {
    const [waiting] = judgeGoals([
      turn(
        false,
        prompt('Plan the move'),
        calls({ id: 'q1', kind: 'QUESTION', text: 'Which region?' }, { id: 'p1', kind: 'PLAN_APPROVAL', text: 'Move the database first' }),
        calls({ id: 'q2', kind: 'QUESTION', text: 'Keep the old replica?' }),
        results('q2'),
      ),
    ]);
    expect(waiting).toMatchObject({ status: 'BLOCKED', rolledUpStatus: 'BLOCKED', block: { kind: 'PLAN_APPROVAL', text: 'Move the database first' } });

    const [answered] = judgeGoals([turn(false, prompt('Pick one'), calls({ id: 'q3', kind: 'QUESTION', text: 'Red or blue?' }), results('q3'))]);
    expect(answered).toMatchObject({ status: 'WORKING', rolledUpStatus: 'WORKING', block: null });
  });
});
