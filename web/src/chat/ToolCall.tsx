import { useState } from 'react';
import { useAtWork } from './at-work';
import { keyInput, sizeOf } from './tool-summary';
import { ToolInput } from './tools/ToolInput';
import { ToolResult } from './tools/ToolResult';
import type { ToolResultBlock } from './types';

interface Props {
  /** the call, or null for a result whose call isn't held (it is on an older page, or gone) */
  call: { name: string; input: unknown; cwd: string | null } | null;
  result: ToolResultBlock | undefined;
}

/**
 * A tool call and its result as one collapsed line: the tool, the input that matters, and how
 * the call ended. The details are rendered only once opened: inputs and results can be large.
 */
export function ToolCall({ call, result }: Props) {
  const [open, setOpen] = useState(false);
  const atWork = useAtWork();
  const name = call?.name ?? result?.toolName ?? 'tool';
  const state = !result ? (atWork ? 'pending' : 'unanswered') : result.isError ? 'error' : 'ok';
  return (
    <details className={`tool tool-${state}`} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        <span className="tool-name">{name}</span>
        {call && <span className="tool-key">{keyInput(call.name, call.input)}</span>}
        <span className="tool-state">{!result ? (atWork ? 'running…' : 'no result') : `${result.isError ? 'error · ' : ''}${sizeOf(result.text)}`}</span>
      </summary>
      {open && (
        <div className="tool-body">
          {call && <ToolInput name={call.name} input={call.input} cwd={call.cwd} />}
          {result && <ToolResult name={name} result={result} />}
        </div>
      )}
    </details>
  );
}
