import { useState } from 'react';
import { useAtWork } from './at-work';
import { LongText } from './LongText';
import { Picture } from './Picture';
import { keyInput, sizeOf } from './tool-summary';
import type { ToolResultBlock } from './types';

interface Props {
  /** the call, or null for a result whose call isn't held (it is on an older page, or gone) */
  call: { name: string; input: unknown } | null;
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
          {call && <LongText className="tool-input" text={formatInput(call.input)} />}
          {result && (result.text || result.images.length === 0) && (
            <LongText className={result.isError ? 'tool-result error' : 'tool-result'} text={result.text || '(no output)'} />
          )}
          {result?.images.map((image, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a result's images never reorder
            <Picture key={i} mediaType={image.mediaType} data={image.data} />
          ))}
        </div>
      )}
    </details>
  );
}

/** one field a line, strings as written (a command or a file's text reads badly as escaped JSON) */
function formatInput(input: unknown): string {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return JSON.stringify(input, null, 2);
  return Object.entries(input)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value, null, 2)}`)
    .join('\n');
}
