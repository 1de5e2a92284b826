// A session's name or a prompt's first line is written in Markdown (`You are **alice**`); shown
// as a title it reads as the words alone. Code spans keep what is inside them as written.

const INLINE: [RegExp, string][] = [
  // links and images: their text
  [/!?\[([^\]]*)\]\([^)]*\)/g, '$1'],
  [/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2'],
  [/~~(?=\S)(.+?)(?<=\S)~~/g, '$1'],
  [/(^|[^\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])/g, '$1$2'],
  // `_` inside a word (snake_case) is no emphasis
  [/(^|[^\w_])_(?=\S)([^_]+?)(?<=\S)_(?![\w_])/g, '$1$2'],
];

export function plainTitle(text: string): string {
  const line = text.replace(/^\s*(#{1,6}|>)\s+/, '');
  return line
    .split(/(`[^`]+`)/)
    .map((part, i) => (i % 2 === 1 ? part.slice(1, -1) : INLINE.reduce((s, [pattern, by]) => s.replace(pattern, by), part)))
    .join('');
}
