// Claude Code writes some terminal output into transcripts as it drew it: `/compact` and hook
// messages dimmed or bolded by escape codes. A page has no terminal to obey them; they go.

// CSI (colours, styles, cursor moves), OSC (titles, links) ended by BEL or ST, and two-byte escapes
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character is what is matched
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

/** The text without terminal escape codes. */
export function withoutAnsi(text: string): string {
  return text.includes('\u001b') ? text.replace(ESCAPES, '') : text;
}
