import type { GoalTool } from '../model/types';
import { arr, clipped, type Json, obj, str } from './fields';

// The few tool calls goals are made of, kept small at index time so a goal never needs the
// transcript read again: questions and plans wait on a person, todo lists and subagents are
// the ask's parts. One reader per tool name: the fast line scanner reads a call's input only
// for these names (record-fields.ts).

type GoalToolReader = (id: string, input: Json | null) => GoalTool | null;

const subagent: GoalToolReader = (id, input) => ({ id, kind: 'SUBAGENT', text: clipText(str(input?.description) ?? str(input?.subagent_type) ?? 'subagent') });

const GOAL_TOOLS = new Map<string, GoalToolReader>([
  [
    'AskUserQuestion',
    (id, input) => {
      const first = obj(arr(input?.questions)?.[0]);
      return { id, kind: 'QUESTION', text: clipText(str(first?.question) ?? str(input?.question) ?? '') };
    },
  ],
  ['ExitPlanMode', (id, input) => ({ id, kind: 'PLAN_APPROVAL', text: clipText(firstLine(str(input?.plan) ?? '')) })],
  ['Task', subagent],
  ['Agent', subagent],
  [
    'TodoWrite',
    (id, input) => {
      const todos = (arr(input?.todos) ?? []).map(obj).filter((t) => t !== null);
      return { id, kind: 'TODOS', text: '', todos: todos.map((t) => ({ content: clipText(str(t.content) ?? ''), status: str(t.status) ?? 'pending' })) };
    },
  ],
  ['TaskCreate', (id, input) => ({ id, kind: 'TASK_CREATE', text: clipText(str(input?.subject) ?? str(input?.description) ?? 'task') })],
  [
    'TaskUpdate',
    (id, input) => {
      const taskId = str(input?.taskId) ?? (typeof input?.taskId === 'number' ? String(input.taskId) : null);
      return taskId ? { id, kind: 'TASK_UPDATE', text: clipText(str(input?.subject) ?? ''), taskId, status: str(input?.status) } : null;
    },
  ],
]);

/** Whether a call of this tool name takes part in goals, so its input is worth reading. */
export const isGoalTool = (name: unknown): boolean => typeof name === 'string' && GOAL_TOOLS.has(name);

export const readGoalTool = (id: string, name: string, input: Json | null): GoalTool | null => GOAL_TOOLS.get(name)?.(id, input) ?? null;

/** How a TaskCreate result starts: only results starting so are read further. */
export const TASK_NUMBER_PREFIX = 'Task #';

/** TaskCreate answers "Task #3 created successfully: …": the number later TaskUpdates use. */
export function taskNumber(content: unknown): string | null {
  const text = typeof content === 'string' ? content : str(obj(arr(content)?.[0])?.text);
  if (!text?.startsWith(TASK_NUMBER_PREFIX)) return null;
  return /^Task #(\d+) created/.exec(text)?.[1] ?? null;
}

const firstLine = (text: string): string =>
  text
    .split('\n')
    .find((l) => l.trim() !== '')
    ?.replace(/^#+\s*/, '')
    .trim() ?? '';
const clipText = (text: string): string => clipped(text, 300);
