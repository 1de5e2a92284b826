import { createHash } from 'node:crypto';
import { BASE_CSP } from '../security/headers';
import { GRAPHIQL_EXAMPLES } from './examples';

// GraphiQL, served offline from the package (the default loads it from a CDN), opening on Loom's
// examples, one tab each, with the way back to the dashboard in its header.

/** the dashboard's mark (web/index.html's icon), for GraphiQL's logo and the browser tab */
const MARK =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16" width="24" height="24"><rect width="16" height="16" rx="3" fill="#3b6fd8"/><path d="M5 3v10h6" stroke="white" stroke-width="2" fill="none"/></svg>';
/** GraphiQL renders its title as HTML beside its logo, at the top right: the link back goes there. */
const HEADER = '<a href="/" class="loom-dashboard-link" style="color:inherit">← Loom dashboard</a>';
/** what the browser's tab says: the title option would put the link's markup there too */
const DOCUMENT_TITLE = '<title>Loom GraphiQL</title>';

/**
 * GraphiQL's tab strip can be left holding a stale drag offset on each tab (after the first layout,
 * or a resize), which it shows only on the focused tab: pressing a tab moves it from under the
 * pointer and the click is lost. Tabs never show that offset here, at the price of not following
 * the pointer while dragged to reorder them.
 */
const TAB_FIX = '<style>.graphiql-container .graphiql-tab{transform:none!important}</style>';

let graphiql: Promise<{ html: string; csp: string }> | null = null;

/**
 * The page and its Content-Security-Policy. GraphiQL is one large inline script that starts
 * workers from blobs: the policy allows exactly that script, by hash. Its package loads with the
 * first page asked for: it is a third of the kernel's imports, and most kernels never show it.
 */
export function graphiqlPage(): Promise<{ html: string; csp: string }> {
  graphiql ??= render();
  return graphiql;
}

async function render(): Promise<{ html: string; csp: string }> {
  const { renderGraphiQL } = await import('@graphql-yoga/render-graphiql');
  const rendered = renderGraphiQL({
    title: HEADER,
    logo: MARK,
    favicon: `data:image/svg+xml,${encodeURIComponent(MARK)}`,
    endpoint: '/graphql',
    subscriptionsProtocol: 'WS',
    defaultTabs: GRAPHIQL_EXAMPLES.map((query) => ({ query })),
  });
  const html = rendered.replace(/<title>[\s\S]*?<\/title>/, DOCUMENT_TITLE).replace('</head>', `${TAB_FIX}</head>`);
  const hashes = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`);
  const csp = `${BASE_CSP.replace("script-src 'self'", `script-src 'self' ${hashes.join(' ')}`)}; worker-src blob:`;
  return { html, csp };
}
