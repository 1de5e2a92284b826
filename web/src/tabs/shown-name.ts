/** The name a session is shown by: the one given it in Loom, else its own. */
export function shownName(session: { name: string; loomName?: string | null }): string {
  return session.loomName ?? session.name;
}
