import { Prose } from '../Prose';
import { Folded } from './Folded';
import { type Fields, textOf } from './tool-fields';

/** A Task (Agent) call: which kind of agent it starts, and the prompt it hands over. */
export function SubagentTask({ input }: { input: Fields }) {
  const name = textOf(input.name);
  return (
    <div className="subagent-task">
      <p className="subagent-type">
        {textOf(input.subagent_type) || 'general-purpose'} agent{name && ` “${name}”`}
      </p>
      <Folded label="its prompt" className="subagent-prompt">
        <Prose held={{ text: textOf(input.prompt), rest: null }} />
      </Folded>
    </div>
  );
}
