import type { HeldText, Placed } from '../held-text';
import { LongText } from '../LongText';
import { Picture } from '../Picture';
import type { ToolResultBlock } from '../types';
import { exitStatus } from './exit-status';
import { SubagentReport } from './SubagentReport';

/** A tool's result: a subagent's report as Markdown, a command's exit status over its output, else the text and pictures it returned. */
export function ToolResult({ name, result, held }: { name: string; result: Placed<ToolResultBlock>; held: HeldText }) {
  const { block, at } = result;
  if ((name === 'Task' || name === 'Agent') && !block.isError) return <SubagentReport result={block} held={held} />;
  return (
    <>
      {name === 'Bash' && <p className={block.isError ? 'bash-exit error' : 'bash-exit'}>{exitStatus(block.isError, block.text)}</p>}
      {(block.text || block.images.length === 0) && <LongText className={block.isError ? 'tool-result error' : 'tool-result'} held={held} />}
      {block.images.map((image, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a result's images never reorder
        <Picture key={i} mediaType={image.mediaType} bytes={image.bytes} at={at} image={i} />
      ))}
    </>
  );
}
