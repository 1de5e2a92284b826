// A prompt a person sent through Loom to a session a terminal holds reaches Claude Code as the
// reason of a blocking Stop hook. Claude Code writes that reason back as an `isMeta` user line,
// "Stop hook feedback:" and the reason (docs/hooks.md); the reason starts with Loom's marker,
// which names the message, so the line reads as the prompt it is, not as a harness note.

const FEEDBACK_PREFIX = 'Stop hook feedback:';
const MARKER = /\[loom:([A-Za-z0-9-]{8,64})\] ?/;

/** The Stop hook reason that delivers a message: the marker, then the text as it was sent. */
export const markedReason = (messageId: string, text: string): string => `[loom:${messageId}] ${text}`;

/** The message a "Stop hook feedback:" line carries, when Loom sent it; null for any other line. */
export function loomMessageIn(text: string | null): { id: string; text: string } | null {
  if (text === null || !text.startsWith(FEEDBACK_PREFIX)) return null;
  const marker = MARKER.exec(text);
  if (!marker) return null;
  return { id: marker[1], text: text.slice(marker.index + marker[0].length).trim() };
}
