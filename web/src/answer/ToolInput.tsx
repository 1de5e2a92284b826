import { diffLines } from 'diff';
import { Markdown } from '../chat/Markdown';

// A tool call's input in the form a person decides on: the command with its directory, an edit
// as a diff, a file's path and size, a plan as Markdown. Built for the blocked cards; the chat's
// tool calls can take the same components.

type Input = Record<string, unknown>;
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

export function ToolInput({ toolName, input, cwd }: { toolName: string; input: Input; cwd?: string | null }) {
  if (toolName === 'Bash') return <BashCommand input={input} cwd={cwd ?? null} />;
  if (toolName === 'Edit') return <EditDiff path={text(input.file_path)} edits={[{ before: text(input.old_string), after: text(input.new_string) }]} />;
  if (toolName === 'MultiEdit' && Array.isArray(input.edits)) {
    const edits = (input.edits as Input[]).map((e) => ({ before: text(e.old_string), after: text(e.new_string) }));
    return <EditDiff path={text(input.file_path)} edits={edits} />;
  }
  if (toolName === 'Write') return <FileWrite path={text(input.file_path)} content={text(input.content)} />;
  if (toolName === 'ExitPlanMode' && typeof input.plan === 'string') return <Markdown text={input.plan} />;
  return <pre className="tool-input-json">{JSON.stringify(input, null, 2)}</pre>;
}

function BashCommand({ input, cwd }: { input: Input; cwd: string | null }) {
  return (
    <div className="bash-command">
      {typeof input.description === 'string' && <p className="bash-description">{input.description}</p>}
      <pre>
        <code>{text(input.command)}</code>
      </pre>
      {cwd && <p className="bash-cwd">in {cwd}</p>}
    </div>
  );
}

function EditDiff({ path, edits }: { path: string; edits: { before: string; after: string }[] }) {
  return (
    <div className="edit-diff">
      <p className="file-path">{path}</p>
      {edits.map((edit, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a call's edits never reorder
        <pre key={i} className="diff">
          {diffLines(edit.before, edit.after).map((part, j) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one diff, in order
            <span key={j} className={part.added ? 'diff-added' : part.removed ? 'diff-removed' : 'diff-same'}>
              {prefixed(part.value, part.added ? '+' : part.removed ? '-' : ' ')}
            </span>
          ))}
        </pre>
      ))}
    </div>
  );
}

/** Each line of a diff part with its sign, as a unified diff shows it. */
function prefixed(value: string, sign: string): string {
  return value
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => `${sign} ${l}\n`)
    .join('');
}

function FileWrite({ path, content }: { path: string; content: string }) {
  const lines = content === '' ? 0 : content.split('\n').length;
  return (
    <div className="file-write">
      <p className="file-path">{path}</p>
      <p className="file-size">
        writes {new TextEncoder().encode(content).length.toLocaleString()} bytes, {lines.toLocaleString()} lines
      </p>
    </div>
  );
}
