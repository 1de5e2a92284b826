import { memo, type ReactElement } from 'react';
import ReactMarkdown, { type Components, defaultUrlTransform, type Options } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { withoutAnsi } from '../lib/ansi';
import { remarkLineBreaks } from './remark-line-breaks';

// Transcript text as Markdown, never as HTML: raw HTML in the text stays literal text (there is
// no rehype-raw), and a link only keeps an http(s) or mailto target. A single newline is a line
// break, as the terminal shows it; terminal escape codes are dropped.

const remarkPlugins: Options['remarkPlugins'] = [remarkGfm, remarkLineBreaks];
// highlight.js's common languages (about 37, what rehype-highlight bundles in any case)
const rehypePlugins: Options['rehypePlugins'] = [rehypeHighlight];

/** react-markdown's own filter first (it drops javascript: and friends), then http(s) and mailto only. */
function safeUrl(url: string): string {
  const kept = defaultUrlTransform(url);
  return /^(https?:|mailto:)/i.test(kept) ? kept : '';
}

const components: Components = {
  a: ({ href, children }) =>
    href ? (
      <a href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    ) : (
      // a link whose target was removed: its text, and nothing to follow
      <span className="inert-link" title="link target removed (only http, https and mailto links are kept)">
        {children}
      </span>
    ),
  // pictures from a transcript are not fetched on sight (a remote image tells its server you looked)
  img: ({ src, alt }) =>
    typeof src === 'string' && src ? (
      <a href={src} target="_blank" rel="noopener noreferrer">
        [image{alt ? `: ${alt}` : ''}]
      </a>
    ) : (
      <span>[image{alt ? `: ${alt}` : ''}]</span>
    ),
  // a wide table scrolls sideways in its own box, not the chat
  table: ({ children }) => (
    <div className="md-table">
      <table>{children}</table>
    </div>
  ),
};

/**
 * Parsed text, newest use last: a row scrolled out and back in is not parsed again (parsing
 * is most of what a row costs to draw). The output is React elements, immutable, safe to reuse.
 */
const parsed = new Map<string, ReactElement>();
const PARSED_KEPT = 600;

function parse(text: string): ReactElement {
  let element = parsed.get(text);
  if (element) parsed.delete(text);
  // react-markdown's Markdown is a plain function of its options (no hooks): call it to keep its output
  else element = ReactMarkdown({ children: withoutAnsi(text), remarkPlugins, rehypePlugins, urlTransform: safeUrl, components });
  parsed.set(text, element);
  if (parsed.size > PARSED_KEPT) parsed.delete(parsed.keys().next().value!);
  return element;
}

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return <div className="md">{parse(text)}</div>;
});
