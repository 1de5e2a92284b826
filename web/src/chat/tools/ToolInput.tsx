import { useMemo } from 'react';
import { Expandable } from '../Expandable';
import type { HeldInput } from '../held-text';
import { Prose } from '../Prose';
import { TextPieces } from '../TextPieces';
import { sizeOf } from '../tool-summary';
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
// The chat's tool calls and the blocked cards' requests both show it. The chat may hold the
// input with its strings cut: each form is drawn from what is held, and from the whole on "show all".

interface Props {
  name: string;
  /** the input as held: whole on a blocked card's request, strings maybe cut in the chat (held-text.ts) */
  held: HeldInput;
  cwd: string | null;
}

export function ToolInput({ name, held, cwd }: Props) {
  const { rest } = held;
  const size = rest ? ` (its longest field: ${sizeOf(rest.longest)})` : '';
  return (
    <Expandable
      held={held.input}
      readWhole={rest?.read ?? null}
      size={size}
      className="tool-input-held"
      render={(input, cut) => <InputView name={name} input={input} cwd={cwd} cut={cut} />}
    />
  );
}

/** One form of a tool's input; `cut` when some string in it is only its first characters. */
function InputView({ name, input, cwd, cut }: { name: string; input: unknown; cwd: string | null; cut: boolean }) {
  const fields = fieldsOf(input);
  switch (name) {
    case 'Bash':
      return <BashCommand input={fields} cwd={cwd} />;
    case 'Edit':
    case 'MultiEdit':
      return <EditInput input={input} cut={cut} />;
    case 'Write':
      return <FileWrite path={textOf(fields.file_path)} content={textOf(fields.content)} cut={cut} />;
    case 'TodoWrite':
      return <Checklist items={todoItems(fields)} />;
    case 'TaskCreate':
    case 'TaskUpdate':
      return <Checklist items={taskItems(name, fields)} />;
    case 'ExitPlanMode':
      if (typeof fields.plan === 'string') return <Prose held={{ text: fields.plan, rest: null }} />;
      break;
    case 'Task':
    case 'Agent':
      return <SubagentTask input={fields} />;
  }
  return (
    <pre className="tool-input">
      <TextPieces text={formatInput(input)} />
    </pre>
  );
}

/** An Edit's or MultiEdit's replacements, found once per input (diffing them is the costly part). */
function EditInput({ input, cut }: { input: unknown; cut: boolean }) {
  const edits = useMemo(() => {
    const fields = fieldsOf(input);
    const replacements = Array.isArray(fields.edits) ? fields.edits.map(fieldsOf) : [fields];
    return replacements.map((e) => ({ before: textOf(e.old_string), after: textOf(e.new_string) }));
  }, [input]);
  return <EditDiff path={textOf(fieldsOf(input).file_path)} edits={edits} cut={cut} />;
}

/** one field a line, strings as written (a command or a file's text reads badly as escaped JSON) */
function formatInput(input: unknown): string {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return JSON.stringify(input, null, 2);
  return Object.entries(input)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value, null, 2)}`)
    .join('\n');
}
