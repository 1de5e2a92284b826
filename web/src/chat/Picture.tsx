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
  const [data, setData] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { atomId, index } = at;
  useEffect(() => {
    if (!shown) return;
    let current = true;
    readImage(atomId, index, image).then(
      (read) => current && setData(read),
      (err: Error) => current && setError(err.message),
    );
    return () => {
      current = false;
    };
  }, [shown, atomId, index, image]);
  const label = `[image${mediaType ? ` ${mediaType}` : ''}${bytes === null ? '' : `, ${sizeOf(bytes, 'bytes')}`}]`;
  if (!shown) return <div className="block-note">{label}</div>;
  if (error) return <div className="block-note">{`${label} could not be read: ${error}`}</div>;
  if (data === null) return <div className="block-note picture-loading">{label} loading…</div>;
  return <img className="picture" src={`data:${mediaType};base64,${data}`} alt="attachment from the transcript" />;
}

async function readImage(atomId: string, index: number, image: number | undefined): Promise<string> {
  const { atom } = await query(IMAGE, { id: atomId });
  const block = atom?.content[index];
  const data =
    block?.__typename === 'ImageBlock' ? block.data : block?.__typename === 'ToolResultBlock' && image !== undefined ? block.images[image]?.data : null;
  if (!data) throw new Error('the transcript no longer holds this image');
  return data;
}
