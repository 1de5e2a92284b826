import { type Fields, fieldsOf, textOf } from './tool-fields';

// The items a todo list (TodoWrite) or a task tool (TaskCreate, TaskUpdate) shows as a checklist.

export interface CheckItem {
  text: string;
  /** pending, in_progress, completed (as Claude Code writes them); null when the call leaves it as it was */
  status: string | null;
  /** what else the call says of it: its description, its owner */
  note: string | null;
}

const LABELS: Record<string, string> = { completed: 'done', in_progress: 'in progress', pending: 'to do' };

/** a status as a person says it */
export const statusLabel = (status: string): string => LABELS[status] ?? status.replace(/_/g, ' ');

/** TodoWrite writes the whole list each time: every item with its status. */
export function todoItems(input: Fields): CheckItem[] {
  const todos = Array.isArray(input.todos) ? input.todos.map(fieldsOf) : [];
  return todos.map((todo) => ({ text: textOf(todo.content), status: textOf(todo.status) || 'pending', note: null }));
}

/** TaskCreate adds one task (pending); TaskUpdate changes one by its number. */
export function taskItems(tool: 'TaskCreate' | 'TaskUpdate', input: Fields): CheckItem[] {
  if (tool === 'TaskCreate') return [{ text: textOf(input.subject), status: 'pending', note: textOf(input.description) || null }];
  const number = typeof input.taskId === 'string' || typeof input.taskId === 'number' ? `#${input.taskId}` : '';
  const subject = textOf(input.subject);
  const owner = textOf(input.owner);
  return [
    { text: subject ? `${number} ${subject}`.trim() : `task ${number}`.trim(), status: textOf(input.status) || null, note: owner ? `owner ${owner}` : null },
  ];
}
