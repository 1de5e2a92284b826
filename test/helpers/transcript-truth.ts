import { readFileSync } from 'node:fs';

// What a transcript file holds, read straight from its JSON with no Loom code: the yardstick
// the fidelity tests hold Loom's API against.

const WRAPPERS = [
  '<command-name>',
  '<command-message>',
  '<command-args>',
  '<local-command-',
  'Caveat: The messages below',
  '<bash-',
  '<user-memory-input>',
  '[Request interrupted',
  '<task-notification>',
  '<user-prompt-submit-hook>',
  '<system-reminder>',
];

/** A content block as a file holds it: the fields read here (a block may be anything, or null). */
interface Block {
  type?: string;
  text?: string;
  tool_use_id?: string;
}

/** A line of a transcript file as JSON: the fields read here. */
interface Rec {
  type?: string;
  uuid?: string;
  parentUuid?: string | null;
  isMeta?: boolean;
  isSidechain?: boolean;
  isCompactSummary?: boolean;
  isVisibleInTranscriptOnly?: boolean;
  message?: { content?: string | (Block | null)[] };
}

function records(file: string): Rec[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Rec);
}

function textOf(r: Rec): { text: string; hasResult: boolean } {
  const content = r.message?.content;
  if (typeof content === 'string') return { text: content, hasResult: false };
  if (!Array.isArray(content)) return { text: '', hasResult: false };
  return {
    text: content
      .filter((b) => b?.type === 'text')
      .map((b) => b?.text ?? '')
      .join('\n'),
    hasResult: content.some((b) => b?.type === 'tool_result'),
  };
}

const isTypedPrompt = (r: Rec): boolean => {
  if (r.type !== 'user' || r.isMeta || r.isSidechain || r.isCompactSummary || r.isVisibleInTranscriptOnly) return false;
  const { text, hasResult } = textOf(r);
  const trimmed = text.trim();
  return trimmed !== '' && !hasResult && !WRAPPERS.some((w) => trimmed.startsWith(w));
};

/**
 * Prompts a person typed that a faithful reader must show: all but those on a branch a later
 * prompt rewound (it forks off above them, and they are not on its chain).
 */
export function keptPrompts(file: string): string[] {
  const recs = records(file);
  // every record here has a uuid; a parentUuid may be null or missing
  const byUuid = new Map<string | null | undefined, Rec>(recs.filter((r) => r.uuid).map((r) => [r.uuid, r]));
  const ancestors = (r: Rec): Set<string> => {
    const seen = new Set<string>();
    for (let p = byUuid.get(r.parentUuid); p && !seen.has(p.uuid!); p = byUuid.get(p.parentUuid)) seen.add(p.uuid!);
    return seen;
  };
  const prompts = recs.filter(isTypedPrompt);
  const above = new Map(prompts.map((p) => [p.uuid, ancestors(p)]));
  return prompts
    .filter(
      (p, i) =>
        !prompts
          .slice(i + 1)
          .some((q) => q.parentUuid && (above.get(p.uuid)!.has(q.parentUuid) || q.parentUuid === p.parentUuid) && !above.get(q.uuid)!.has(p.uuid!)),
    )
    .map((p) => textOf(p).text);
}

/** Ids of tool calls the file answers somewhere (on any branch). */
export function answeredCalls(file: string): Set<string> {
  const ids = new Set<string>();
  for (const r of records(file)) {
    const content = r.message?.content;
    if (Array.isArray(content)) for (const b of content) if (b?.type === 'tool_result' && b.tool_use_id) ids.add(b.tool_use_id);
  }
  return ids;
}
