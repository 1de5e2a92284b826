import { useEffect, useState } from 'react';

/** The current time, renewed every `ms`, so ages ("5m") move on while nothing else changes. */
export function useNow(ms: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}
