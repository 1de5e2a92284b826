import type { LocalSource } from '../../spoke/source';

/**
 * Everything a client can ask of a source's sessions that its first read decides: each listed
 * session and its subagents, all the way down, with its summary, turns, usage and goals. Two
 * indexes of one tree built different ways must give the same.
 */
export async function everything(source: LocalSource, host: string) {
  const keys: string[] = [];
  const visit = (key: string) => {
    keys.push(key);
    for (const child of source.session(host, key)?.subagentKeys ?? []) visit(child);
  };
  for (const listed of source.sessions({}, 500, null).sessions) visit(listed.key);
  keys.sort();
  // one session at a time: with two awake, waking many at once would put some back to sleep
  const all = [];
  for (const key of keys) {
    const turns = (await source.turns(host, key)).map((turn) => ({ ...turn, atoms: turn.atoms.map((a) => [a.uuid, a.sequence]) }));
    all.push({ summary: source.session(host, key), turns, usage: source.sessionUsage(host, key, true), goals: source.goals(host, key) });
  }
  return all;
}
