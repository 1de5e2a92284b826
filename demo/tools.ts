// What each scripted tool call looks like on disk: the tool_use input the model sends, the
// tool_result text it gets back, and the structured toolUseResult Claude Code keeps beside it.

export interface Todo {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
  activeForm: string;
}

/** Paths are relative to the session's cwd. */
export type ToolCall =
  | { tool: 'Read'; file: string; lines: readonly string[] }
  | { tool: 'Edit'; file: string; oldString: string; newString: string }
  | { tool: 'Bash'; command: string; description: string; output: string; exitCode?: number }
  | { tool: 'Grep'; pattern: string; matches: readonly string[] }
  | { tool: 'TodoWrite'; todos: readonly Todo[] };

export interface RenderedCall {
  name: string;
  input: Record<string, unknown>;
  content: unknown;
  isError: boolean;
  toolUseResult: unknown;
}

export function renderCall(call: ToolCall, cwd: string): RenderedCall {
  switch (call.tool) {
    case 'Read':
      return renderRead(call.file, call.lines, cwd);
    case 'Edit':
      return renderEdit(call, cwd);
    case 'Bash':
      return renderBash(call);
    case 'Grep':
      return renderGrep(call.pattern, call.matches, cwd);
    case 'TodoWrite':
      return {
        name: 'TodoWrite',
        input: { todos: call.todos },
        content: 'Todo list updated. Keep working through the items in order.',
        isError: false,
        toolUseResult: { oldTodos: [], newTodos: call.todos },
      };
  }
}

function renderRead(file: string, lines: readonly string[], cwd: string): RenderedCall {
  const filePath = `${cwd}/${file}`;
  // Read shows the model numbered lines: the number right-aligned in six columns, then an arrow.
  const numbered = lines.map((line, i) => `${String(i + 1).padStart(6)}\u2192${line}`).join('\n');
  return {
    name: 'Read',
    input: { file_path: filePath },
    content: numbered,
    isError: false,
    toolUseResult: {
      type: 'text',
      file: { filePath, content: lines.join('\n'), numLines: lines.length, startLine: 1, totalLines: lines.length },
    },
  };
}

function renderEdit(call: { file: string; oldString: string; newString: string }, cwd: string): RenderedCall {
  const filePath = `${cwd}/${call.file}`;
  const oldLines = call.oldString.split('\n');
  const newLines = call.newString.split('\n');
  return {
    name: 'Edit',
    input: { file_path: filePath, old_string: call.oldString, new_string: call.newString, replace_all: false },
    content: `The file ${filePath} has been updated.`,
    isError: false,
    toolUseResult: {
      filePath,
      oldString: call.oldString,
      newString: call.newString,
      originalFile: null,
      structuredPatch: [
        {
          oldStart: 1,
          oldLines: oldLines.length,
          newStart: 1,
          newLines: newLines.length,
          lines: [...oldLines.map((l) => `-${l}`), ...newLines.map((l) => `+${l}`)],
        },
      ],
      userModified: false,
      replaceAll: false,
    },
  };
}

function renderBash(call: { command: string; description: string; output: string; exitCode?: number }): RenderedCall {
  const input = { command: call.command, description: call.description };
  if (call.exitCode !== undefined && call.exitCode !== 0) {
    // A failing command comes back as an error result, and toolUseResult is then a plain string.
    const text = `Exit code ${call.exitCode}\n${call.output}`;
    return { name: 'Bash', input, content: text, isError: true, toolUseResult: `Error: ${text}` };
  }
  return {
    name: 'Bash',
    input,
    content: call.output,
    isError: false,
    toolUseResult: { stdout: call.output, stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
  };
}

function renderGrep(pattern: string, matches: readonly string[], cwd: string): RenderedCall {
  const content = matches.length > 0 ? matches.join('\n') : 'No matches found';
  return {
    name: 'Grep',
    input: { pattern, path: cwd, output_mode: 'content', '-n': true },
    content,
    isError: false,
    toolUseResult: { mode: 'content', numFiles: 0, filenames: [], content, numLines: matches.length },
  };
}
