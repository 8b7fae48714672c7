import { useEffect, useRef, useState } from 'react';
import { afterFirstScreen } from './after-first-screen';

/**
 * Whether what was rendered once `ready` is on screen (afterFirstScreen): what the first screen does not need (the
 * visit, the slide index) is asked for after it. Stays true.
 */
export function useAfterFirstScreen(ready: boolean): boolean {
  const [shown, setShown] = useState(false);
  const since = useRef(0);
  if (ready) since.current ||= performance.now();
  useEffect(() => {
    if (!ready || shown) return;
    let live = true;
    void afterFirstScreen(since.current).then(() => live && setShown(true));
    return () => {
      live = false;
    };
  }, [ready, shown]);
  return shown;
}
