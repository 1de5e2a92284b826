import type { Fields } from './tool-fields';
import { textOf } from './tool-fields';

/** The command as it runs, what it is for, and where. */
export function BashCommand({ input, cwd }: { input: Fields; cwd: string | null }) {
  return (
    <div className="bash-command">
      {typeof input.description === 'string' && <p className="bash-description">{input.description}</p>}
      <pre>
        <code>{textOf(input.command)}</code>
      </pre>
      {cwd && <p className="bash-cwd">in {cwd}</p>}
    </div>
  );
}
