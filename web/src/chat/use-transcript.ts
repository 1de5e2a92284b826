import { useEffect, useMemo } from 'react';
import { TranscriptFeed, type TranscriptState } from './transcript-feed';

/** The session's atoms, live, with the feed to ask for older pages. */
export function useTranscript(sessionId: string): TranscriptState & { feed: TranscriptFeed } {
  const feed = useMemo(() => new TranscriptFeed(sessionId), [sessionId]);
  useEffect(() => {
    feed.start();
    return () => feed.stop();
  }, [feed]);
  return { ...feed.state.use(), feed };
}
