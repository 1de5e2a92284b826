import type { Turn } from '../model/types';

// The newer task tools keep one task list per session, not per turn: TaskCreate adds a task
// (numbered 1, 2, … in creation order; its result says "Task #N created", which wins when the
// two disagree), TaskUpdate changes a task's status or subject by number, "deleted" removes it.
// A task belongs to the goal whose turn created it and shows its latest state.

export interface Task {
  number: string;
  title: string;
  status: string;
}

/** Every task the session created, by the id of the TaskCreate call, in its latest state. */
export function taskBoard(turns: Turn[]): Map<string, Task> {
  const byCall = new Map<string, Task>();
  const byNumber = new Map<string, Task>();
  let counter = 0;
  for (const turn of turns) {
    for (const atom of turn.atoms) {
      for (const tool of atom.goalTools ?? []) {
        if (tool.kind === 'TASK_CREATE') {
          const task = { number: String(++counter), title: tool.text, status: 'pending' };
          byCall.set(tool.id, task);
          byNumber.set(task.number, task);
        } else if (tool.kind === 'TASK_NUMBER') {
          const task = byCall.get(tool.id);
          if (!task || task.number === tool.text) continue;
          if (byNumber.get(task.number) === task) byNumber.delete(task.number);
          task.number = tool.text;
          byNumber.set(task.number, task);
          counter = Math.max(counter, Number(tool.text));
        } else if (tool.kind === 'TASK_UPDATE') {
          const task = byNumber.get(tool.taskId);
          if (!task) continue;
          if (tool.status) task.status = tool.status;
          if (tool.text) task.title = tool.text;
        }
      }
    }
  }
  for (const [call, task] of byCall) if (task.status === 'deleted') byCall.delete(call);
  return byCall;
}
