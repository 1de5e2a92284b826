import type { HeldText } from '../held-text';
import { LongText } from '../LongText';
import { Markdown } from '../Markdown';
import { BashCommand } from './BashCommand';
import { Checklist } from './Checklist';
import { taskItems, todoItems } from './checklist-items';
import { EditDiff } from './EditDiff';
import { FileWrite } from './FileWrite';
import { SubagentTask } from './SubagentTask';
import { fieldsOf, textOf } from './tool-fields';
import './tools.css';

// A tool call's input in the form a person reads or decides on: the command with its directory,
// an edit as a diff, a file's path and size, a todo list as a checklist, a plan as Markdown.
// The chat's tool calls and the blocked cards' requests both show it.

interface Props {
  name: string;
  /** the input as held: in the chat its strings may be cut (held-text.ts) */
  input: unknown;
  cwd: string | null;
  /** the input in a form, with "show all" when the chat holds it cut; whole when not given (a blocked card's request) */
  held?: (format: (input: unknown) => string) => HeldText;
}

export function ToolInput({ name, input, cwd, held = (format) => ({ text: format(input), rest: null }) }: Props) {
  const fields = fieldsOf(input);
  switch (name) {
    case 'Bash':
      return <BashCommand input={fields} cwd={cwd} />;
    case 'Edit':
      return <EditDiff path={textOf(fields.file_path)} edits={[{ before: textOf(fields.old_string), after: textOf(fields.new_string) }]} />;
    case 'MultiEdit': {
      const edits = Array.isArray(fields.edits) ? fields.edits.map(fieldsOf) : [];
      return <EditDiff path={textOf(fields.file_path)} edits={edits.map((e) => ({ before: textOf(e.old_string), after: textOf(e.new_string) }))} />;
    }
    case 'Write':
      return <FileWrite path={textOf(fields.file_path)} content={held((whole) => textOf(fieldsOf(whole).content))} />;
    case 'TodoWrite':
      return <Checklist items={todoItems(fields)} />;
    case 'TaskCreate':
    case 'TaskUpdate':
      return <Checklist items={taskItems(name, fields)} />;
    case 'ExitPlanMode':
      if (typeof fields.plan === 'string') return <Markdown text={fields.plan} />;
      break;
    case 'Task':
    case 'Agent':
      return <SubagentTask input={fields} />;
  }
  return <LongText className="tool-input" held={held(formatInput)} />;
}

/** one field a line, strings as written (a command or a file's text reads badly as escaped JSON) */
function formatInput(input: unknown): string {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return JSON.stringify(input, null, 2);
  return Object.entries(input)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value, null, 2)}`)
    .join('\n');
}
