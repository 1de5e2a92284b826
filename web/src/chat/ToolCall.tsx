import { useState } from 'react';
import { useAtWork } from './at-work';
import { type HeldText, heldInput, heldText, type Placed } from './held-text';
import { LongText } from './LongText';
import { Picture } from './Picture';
import { keyInput, sizeOf } from './tool-summary';
import type { ToolResultBlock, ToolUseBlock } from './types';

interface Props {
  /** the call, or null for a result whose call isn't held (it is on an older page, or gone) */
  call: Placed<ToolUseBlock> | null;
  result: Placed<ToolResultBlock> | undefined;
}

/**
 * A tool call and its result as one collapsed line: the tool, the input that matters, and how
 * the call ended. The details are rendered only once opened: inputs and results can be large.
 */
export function ToolCall({ call, result }: Props) {
  const [open, setOpen] = useState(false);
  const atWork = useAtWork();
  const use = call?.block;
  const answer = result?.block;
  const name = use?.name ?? answer?.toolName ?? 'tool';
  const state = !answer ? (atWork ? 'pending' : 'unanswered') : answer.isError ? 'error' : 'ok';
  return (
    <details className={`tool tool-${state}`} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        <span className="tool-name">{name}</span>
        {use && <span className="tool-key">{keyInput(use.name, use.input)}</span>}
        <span className="tool-state">{!answer ? (atWork ? 'running…' : 'no result') : `${answer.isError ? 'error · ' : ''}${sizeOf(answer.length)}`}</span>
      </summary>
      {open && (
        <div className="tool-body">
          {call && <LongText className="tool-input" held={heldInput(call.block, call.at, formatInput)} />}
          {result && (result.block.text || result.block.images.length === 0) && (
            <LongText className={result.block.isError ? 'tool-result error' : 'tool-result'} held={resultText(result)} />
          )}
          {answer?.images.map((image, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a result's images never reorder
            <Picture key={i} mediaType={image.mediaType} data={image.data} />
          ))}
        </div>
      )}
    </details>
  );
}

function resultText({ block, at }: Placed<ToolResultBlock>): HeldText {
  return block.text ? heldText(block.text, block.length, at, 'ToolResultBlock') : { text: '(no output)', rest: null };
}

/** one field a line, strings as written (a command or a file's text reads badly as escaped JSON) */
function formatInput(input: unknown): string {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return JSON.stringify(input, null, 2);
  return Object.entries(input)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value, null, 2)}`)
    .join('\n');
}
