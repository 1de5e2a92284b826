import { useEffect, useState } from 'react';
import { query } from '../lib/gql';
import type { BlockPlace } from './held-text';
import { IMAGE } from './queries';
import { sizeOf } from './tool-summary';

// Only raster formats a browser shows safely from a data: URL (no SVG: it can carry script).
const SHOWN_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

interface Props {
  mediaType: string | null;
  bytes: number | null;
  /** the block that holds it, and for a tool result's image its place among the result's images */
  at: BlockPlace;
  image?: number;
}

/** An image of the transcript, its bytes read when it is drawn (the chat's pages carry only its size). */
export function Picture({ mediaType, bytes, at, image }: Props) {
  const shown = bytes !== null && mediaType !== null && SHOWN_TYPES.has(mediaType);
  const { atomId, index } = at;
  const key = `${atomId}/${index}/${image ?? ''}`;
  const [read, setRead] = useState<{ key: string; data: string } | { key: string; error: string } | null>(null);
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is made of atomId, index and image; a new `attempt` reads again after a failure
  useEffect(() => {
    if (!shown || recent.has(key)) return;
    let current = true;
    readImage(key, { atomId, index }, image).then(
      (data) => current && setRead({ key, data }),
      (err: Error) => current && setRead({ key, error: err.message }),
    );
    return () => {
      current = false;
    };
  }, [shown, key, attempt]);
  const label = `[image${mediaType ? ` ${mediaType}` : ''}${bytes === null ? '' : `, ${sizeOf(bytes, 'bytes')}`}]`;
  if (!shown) return <div className="block-note">{label}</div>;
  const data = recent.get(key) ?? (read?.key === key && 'data' in read ? read.data : null);
  if (data !== null) return <img className="picture" src={`data:${mediaType};base64,${data}`} alt="attachment from the transcript" />;
  if (read?.key === key && 'error' in read) {
    return (
      <div className="block-note">
        {label} could not be read: {read.error}{' '}
        <button type="button" className="show-all" onClick={() => setAttempt((n) => n + 1)}>
          try again
        </button>
      </div>
    );
  }
  return <div className="block-note picture-loading">{label} loading…</div>;
}

/** Images read lately: a row scrolled out and back in draws its image without asking again. */
const recent = new Map<string, string>();
const RECENT_KEPT = 24;

async function readImage(key: string, at: BlockPlace, image: number | undefined): Promise<string> {
  const { atom } = await query(IMAGE, { id: at.atomId });
  const block = atom?.content[at.index];
  const data =
    block?.__typename === 'ImageBlock' ? block.data : block?.__typename === 'ToolResultBlock' && image !== undefined ? block.images[image]?.data : null;
  if (!data) throw new Error('the transcript no longer holds this image');
  recent.set(key, data);
  if (recent.size > RECENT_KEPT) recent.delete(recent.keys().next().value!);
  return data;
}
