import { isWhole } from './characters';
import type { ChatAtom } from './types';

// A prompt Loom delivered to a terminal session reaches Claude Code as a Stop hook's reason, and
// the transcript keeps it as "Stop hook feedback:\n[loom:<id>] <the text>". The kernel already
// reads such a line as the person's prompt (author via LOOM); the chat shows just the text.

const WRAPPER = /^\s*Stop hook feedback:\s*\[loom:[A-Za-z0-9-]{8,64}\] ?/;

/** The text as the person sent it: everything through Loom's marker taken off. */
export const unwrapLoomPrompt = (text: string): string => text.replace(WRAPPER, '').trim();

export const sentThroughLoom = (atom: ChatAtom): boolean => atom.author?.via === 'LOOM';

/** What a prompt atom says, as it was typed: its text blocks, Loom's wrapper taken off. */
function promptText(atom: ChatAtom): string {
  const text = atom.content.flatMap((b) => (b.__typename === 'TextBlock' ? [b.text] : [])).join('\n');
  return sentThroughLoom(atom) ? unwrapLoomPrompt(text) : text.trim();
}

/** Whether a prompt atom says this text; the chat may hold only its first characters, which the text must then begin with. */
export function promptSays(atom: ChatAtom, text: string): boolean {
  const cut = atom.content.some((b) => b.__typename === 'TextBlock' && !isWhole(b.text, b.length));
  return cut ? text.trim().startsWith(promptText(atom)) : promptText(atom) === text.trim();
}
