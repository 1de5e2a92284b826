import { useState } from 'react';
import { useAtWork } from './at-work';
import { type HeldText, heldInput, heldText, type Placed } from './held-text';
import { keyInput, sizeOf } from './tool-summary';
import { ToolInput } from './tools/ToolInput';
import { ToolResult } from './tools/ToolResult';
import type { ToolResultBlock, ToolUseBlock } from './types';

interface Props {
  /** the call, or null for a result whose call isn't held (it is on an older page, or gone) */
  call: Placed<ToolUseBlock> | null;
  result: Placed<ToolResultBlock> | undefined;
  /** open at first: a search hit is in its input or its result */
  opened?: boolean;
}

/**
 * A tool call and its result as one collapsed line: the tool, the input that matters, and how
 * the call ended. The details are rendered only once opened: inputs and results can be large.
 */
export function ToolCall({ call, result, opened = false }: Props) {
  const [open, setOpen] = useState(opened);
  const atWork = useAtWork();
  const use = call?.block;
  const answer = result?.block;
  const name = use?.name ?? answer?.toolName ?? 'tool';
  const state = !answer ? (atWork ? 'pending' : 'unanswered') : answer.isError ? 'error' : 'ok';
  return (
    <details className={`tool tool-${state}`} open={opened} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        <span className="tool-name">{name}</span>
        {use && <span className="tool-key">{keyInput(use.name, use.input)}</span>}
        <span className="tool-state">{!answer ? (atWork ? 'running…' : 'no result') : `${answer.isError ? 'error · ' : ''}${sizeOf(answer.length)}`}</span>
      </summary>
      {open && call && (
        <div className="tool-body">
          <ToolInput name={call.block.name} held={heldInput(call.block, call.at)} cwd={call.block.cwd} />
          {result && <ToolResult name={name} result={result} held={resultText(result)} />}
        </div>
      )}
      {open && !call && result && (
        <div className="tool-body">
          <ToolResult name={name} result={result} held={resultText(result)} />
        </div>
      )}
    </details>
  );
}

function resultText({ block, at }: Placed<ToolResultBlock>): HeldText {
  return block.text ? heldText(block.text, block.length, at, 'ToolResultBlock') : { text: '(no output)', rest: null };
}
