import { ownString } from './fields';

// A prompt a person sent through Loom to a session a terminal holds reaches Claude Code as the
// reason of a blocking Stop hook. Claude Code writes that reason back as an `isMeta` user line,
// "Stop hook feedback:" and the reason (docs/hooks.md); the reason starts with Loom's marker,
// which names the message, so the line reads as the prompt it is, not as a harness note.

/** the whole reason is Loom's: the marker comes first, so another hook's output quoting one is not taken for it */
const DELIVERED = /^Stop hook feedback:\n\[loom:([A-Za-z0-9-]{8,64})\] ?/;

/** The Stop hook reason that delivers a message: the marker, then the text as it was sent. */
export const markedReason = (messageId: string, text: string): string => `[loom:${messageId}] ${text}`;

/** The message a "Stop hook feedback:" line carries, when Loom sent it; null for any other line. */
export function loomMessageIn(text: string | null): { id: string; text: string } | null {
  const marker = text === null ? null : DELIVERED.exec(text);
  return marker ? { id: ownString(marker[1]), text: text!.slice(marker[0].length).trim() } : null;
}
