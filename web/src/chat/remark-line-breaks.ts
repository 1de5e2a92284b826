import type { Nodes, PhrasingContent, Root } from 'mdast';

// Claude and people write lists and steps as lines ended by one newline; CommonMark joins such
// lines into one paragraph. As remark-breaks does, a newline inside text becomes a line break
// (code keeps its newlines: it is not text).

export function remarkLineBreaks() {
  return (tree: Root) => keepLineBreaks(tree);
}

function keepLineBreaks(node: Nodes): void {
  if (!('children' in node)) return;
  for (const child of node.children) keepLineBreaks(child);
  const hasBreak = node.children.some((child) => child.type === 'text' && child.value.includes('\n'));
  if (!hasBreak) return;
  // only phrasing content holds text nodes: the parent's children are phrasing content here
  node.children = (node.children as PhrasingContent[]).flatMap((child) => (child.type === 'text' ? withBreaks(child.value) : [child])) as typeof node.children;
}

function withBreaks(value: string): PhrasingContent[] {
  const parts: PhrasingContent[] = [];
  value.split(/\r?\n|\r/).forEach((line, i) => {
    if (i > 0) parts.push({ type: 'break' });
    if (line) parts.push({ type: 'text', value: line });
  });
  return parts;
}
