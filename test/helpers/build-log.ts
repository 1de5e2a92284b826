/**
 * A build log of about `chars` characters (a line per compiled module, Markdown's `# Build log`
 * first), its last line `last`: the block of megabytes a session may hold.
 */
export function buildLog(chars: number, last: string): string {
  const lines = ['# Build log', ''];
  for (let step = 0, length = 0; length < chars - last.length; step++) {
    lines.push(`step ${String(step).padStart(7, '0')}: compiled module_${step}.ts in ${step % 97} ms, no warnings`);
    length += lines[lines.length - 1].length + 1;
  }
  lines.push(last);
  return lines.join('\n');
}
