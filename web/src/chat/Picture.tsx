// Only raster formats a browser shows safely from a data: URL (no SVG: it can carry script).
const SHOWN_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** An image block of the transcript, from its own bytes. */
export function Picture({ mediaType, data }: { mediaType: string | null; data: string | null }) {
  if (!data || !mediaType || !SHOWN_TYPES.has(mediaType)) return <div className="block-note">[image{mediaType ? ` ${mediaType}` : ''}]</div>;
  return <img className="picture" src={`data:${mediaType};base64,${data}`} alt="attachment from the transcript" />;
}
