import { plainTitle } from '../lib/plain-title';
import { statusLabel, taskItems, todoItems } from './tools/checklist-items';
import { type Fields, fieldsOf, textOf } from './tools/tool-fields';

// The one line that says what a tool call did: the input a person would look for first.

/** input fields worth a headline, per tool; the first one present wins */
const KEY_FIELDS: Record<string, string[]> = {
  Bash: ['command'],
  BashOutput: ['bash_id'],
  KillShell: ['shell_id'],
  Read: ['file_path'],
  Edit: ['file_path'],
  MultiEdit: ['file_path'],
  Write: ['file_path'],
  NotebookEdit: ['notebook_path'],
  Grep: ['pattern'],
  Glob: ['pattern'],
  Task: ['description'],
  Agent: ['description'],
  WebFetch: ['url'],
  WebSearch: ['query'],
  Skill: ['skill', 'command'],
  SlashCommand: ['command'],
  TaskCreate: ['subject'],
};

/** tools whose headline is made from their input, not read from one field */
const HEADLINES: Record<string, (input: Fields) => string> = {
  TodoWrite: (input) => {
    const todos = todoItems(input);
    const now = todos.find((t) => t.status === 'in_progress');
    return `${todos.filter((t) => t.status === 'completed').length} of ${todos.length} done${now ? ` · ${now.text}` : ''}`;
  },
  TaskUpdate: (input) => {
    const [task] = taskItems('TaskUpdate', input);
    return task.status ? `${task.text} → ${statusLabel(task.status)}` : task.text;
  },
  ExitPlanMode: (input) => plainTitle(textOf(input.plan).trim().split('\n')[0]),
};

/** fields that name the thing acted on, for tools this table doesn't know (MCP tools and newer ones) */
const COMMON_FIELDS = ['command', 'file_path', 'path', 'pattern', 'url', 'query', 'description', 'prompt'];

const HEADLINE_MAX = 160;

export function keyInput(tool: string, input: unknown): string {
  if (!input || typeof input !== 'object') return input == null ? '' : clip(String(input));
  const fields = fieldsOf(input);
  const headline = HEADLINES[tool];
  if (headline) return clip(headline(fields));
  for (const name of KEY_FIELDS[tool] ?? COMMON_FIELDS) {
    const value = fields[name];
    if (typeof value === 'string' && value) return clip(value);
  }
  return clip(JSON.stringify(input));
}

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > HEADLINE_MAX ? `${oneLine.slice(0, HEADLINE_MAX - 1)}…` : oneLine;
}

/** how long a tool result is, from the characters the API counts in it (the chat may hold only the first): "812 chars", "14.2k chars"; or an image, in bytes */
export function sizeOf(count: number, unit = 'chars'): string {
  if (count < 1000) return `${count} ${unit}`;
  if (count < 1_000_000) return `${(count / 1000).toFixed(1)}k ${unit}`;
  return `${(count / 1_000_000).toFixed(1)}M ${unit}`;
}
