/**
 * How many of a long list's items to draw: the first few at once, then a batch more whenever the
 * browser is idle, until all are drawn. The first items paint without waiting for the whole list
 * to be built (a dashboard's twenty cards take longer to build than its first chart).
 */
import { useEffect, useState } from 'react';

// Safari has no requestIdleCallback: a timer is the next best moment.
const whenIdle = (work: () => void): (() => void) => {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(work, { timeout: 200 });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(work, 16);
  return () => clearTimeout(handle);
};

export function useDrawnCount(total: number, first: number, batch: number): number {
  const [drawn, setDrawn] = useState(first);
  useEffect(() => {
    if (drawn >= total) return;
    return whenIdle(() => setDrawn((count) => count + batch));
  }, [drawn, total, batch]);
  return Math.min(drawn, total);
}
