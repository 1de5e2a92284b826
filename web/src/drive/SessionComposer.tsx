import { useMemo } from 'react';
import type { ChatAtom } from '../chat/types';
import { useHosts } from '../network/hosts';
import { bubblesOf } from './bubbles';
import { Composer } from './Composer';
import { cannotActOn } from './cannot-act';
import { useOutbox } from './outbox';
import { PendingPrompts } from './PendingPrompts';
import type { Delivery, SessionHolder } from './types';
import './drive.css';

interface Props {
  sessionId: string;
  host: string;
  holder: SessionHolder;
  driving: boolean;
  /** a subagent's session: it takes its prompts from its parent */
  subagent: boolean;
  /** the chat's atoms: a bubble retires when its prompt is among them */
  atoms: readonly ChatAtom[];
}

/** The end of the chat: the prompts on their way, and the box to send the next one. */
export function SessionComposer({ sessionId, host, holder, driving, subagent, atoms }: Props) {
  const { outbox, state } = useOutbox(sessionId);
  const { hosts } = useHosts();
  const bubbles = useMemo(() => bubblesOf(state, atoms), [state, atoms]);
  const blocked = subagent ? 'A subagent takes its prompts from the session that started it.' : cannotActOn(hosts.find((h) => h.name === host));
  // a session nothing holds is resumed with the prompt; one a process holds is sent it
  const how: Delivery = holder === 'NONE' ? 'resume' : 'send';
  const newest = atoms.at(-1)?.sequence ?? 0;
  return (
    <>
      <PendingPrompts bubbles={bubbles} blocked={blocked} onRetry={(b) => outbox.retry(b, how, newest)} onDismiss={(b) => outbox.dismiss(b)} />
      <Composer
        sessionId={sessionId}
        holder={holder}
        driving={driving}
        blocked={blocked}
        resuming={outbox.resuming()}
        onSend={(text) => outbox.send(text, how, newest)}
      />
    </>
  );
}
