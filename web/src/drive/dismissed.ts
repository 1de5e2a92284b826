// Sent prompts the person dismissed after they were not delivered. The kernel keeps the last few
// settled prompts of a session and says so again on every page load; a dismissal is this
// browser's, kept here so a dropped prompt once dismissed stays out of the chat.

const KEY = 'loom.dismissedPrompts';
/** the kernel keeps 20 settled prompts a session: this many outlive any list it sends */
const KEPT = 500;

function load(): string[] {
  try {
    const saved: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(saved) ? saved.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

const dismissed = load();
const lookup = new Set(dismissed);

export const isDismissed = (promptId: string): boolean => lookup.has(promptId);

export function dismiss(promptId: string): void {
  if (lookup.has(promptId)) return;
  lookup.add(promptId);
  dismissed.push(promptId);
  for (const old of dismissed.splice(0, Math.max(0, dismissed.length - KEPT))) lookup.delete(old);
  try {
    localStorage.setItem(KEY, JSON.stringify(dismissed));
  } catch {
    // storage full or off: dismissed for this page only
  }
}
