import type { Source } from '../spoke/model/source';

// What `/` shows until the web client exists: the sessions, newest first, and a link to
// GraphiQL. Everything from transcripts is escaped: it is text, never HTML.

const escape = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function renderIndexPage(source: Source): string {
  const kernel = source.kernel();
  const page = source.sessions({}, 200, null);
  const rows = page.sessions
    .map(
      (s) =>
        `<tr><td><span class="host">${escape(s.host)}:</span>${escape(s.name)}</td><td>${escape(s.dir)}</td>` +
        `<td>${s.turnCount}</td><td>${s.atomCount}</td><td>${new Date(s.updatedAt).toISOString()}</td></tr>`,
    )
    .join('\n');
  const indexing = kernel.indexing.done
    ? ''
    : `<p>Indexing: ${kernel.indexing.filesDone} of ${kernel.indexing.filesTotal} files…</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Loom · ${escape(kernel.host.name)}</title>
<style>
body{font:14px system-ui,sans-serif;margin:2rem;color:#222;background:#fff}
@media (prefers-color-scheme:dark){body{color:#ddd;background:#111}a{color:#8af}}
table{border-collapse:collapse}td,th{padding:.25rem .75rem;text-align:left;border-bottom:1px solid #8884}
.host{opacity:.5}
</style></head><body>
<h1>Loom on ${escape(kernel.host.name)}</h1>
<p>${page.totalCount} sessions from <code>${escape(kernel.projectsRoot)}</code>. Explore the API in <a href="/graphql">GraphiQL</a>.</p>
${indexing}
<table><thead><tr><th>Session</th><th>Directory</th><th>Turns</th><th>Atoms</th><th>Updated</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</body></html>
`;
}
