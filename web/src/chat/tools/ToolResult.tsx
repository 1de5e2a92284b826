import type { HeldText } from '../held-text';
import { LongText } from '../LongText';
import { Picture } from '../Picture';
import type { ToolResultBlock } from '../types';
import { exitStatus } from './exit-status';
import { SubagentReport } from './SubagentReport';

/** A tool's result: a subagent's report as Markdown, a command's exit status over its output, else the text and pictures it returned. */
export function ToolResult({ name, result, held }: { name: string; result: ToolResultBlock; held: HeldText }) {
  if ((name === 'Task' || name === 'Agent') && !result.isError) return <SubagentReport result={result} />;
  return (
    <>
      {name === 'Bash' && <p className={result.isError ? 'bash-exit error' : 'bash-exit'}>{exitStatus(result.isError, result.text)}</p>}
      {(result.text || result.images.length === 0) && <LongText className={result.isError ? 'tool-result error' : 'tool-result'} held={held} />}
      {result.images.map((image, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a result's images never reorder
        <Picture key={i} mediaType={image.mediaType} data={image.data} />
      ))}
    </>
  );
}
